package dev.warden.gateway.internal.call;

import dev.warden.core.incident.ErrorBoundary;
import dev.warden.gateway.internal.access.AccessPolicy;
import dev.warden.gateway.internal.audit.AuditTrail;
import dev.warden.gateway.internal.catalog.PinWatch;
import dev.warden.gateway.internal.catalog.ToolCatalog;
import dev.warden.gateway.internal.limits.ClientRates;
import dev.warden.gateway.internal.metrics.GatewayMetrics;
import dev.warden.gateway.internal.parked.ParkedCalls;
import dev.warden.gateway.internal.upstream.TaskOwners;
import java.time.Clock;
import java.util.Optional;

/**
 * What every client connection of one gateway shares besides the upstreams.
 *
 * @param boundary core's recorder over the incident store, through which a connection records its
 *     own failures ({@link ErrorBoundary#serving} its caller), so every ref a client sees resolves
 * @param forwarding where a parked call's round for another replica goes ({@link ParkedForwarding#none()}: one process)
 * @param draining completes when the gateway starts draining (listen streams then end gracefully)
 * @param toolScopes the scopes each tool needs of the caller's token (none without an authenticator)
 * @param telemetry where each client connection's spans go ({@link dev.warden.gateway.internal.tracing.ServerSpans})
 */
public record Services(AuditTrail trail, ClientRates perClient, ParkedCalls parked, ToolCatalog tools,
                       ErrorBoundary boundary, Optional<AccessPolicy> access, Clock clock,
                       PinWatch pins, ParkedForwarding forwarding,
                       java.util.concurrent.CompletionStage<Void> draining, TaskOwners tasks,
                       java.util.function.Function<String, java.util.Set<String>> toolScopes,
                       dev.warden.telemetry.McpTelemetry telemetry) {

    public GatewayMetrics metrics() {
        return trail.metrics();
    }
}
