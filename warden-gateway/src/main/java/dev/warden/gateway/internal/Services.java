package dev.warden.gateway.internal;

import dev.warden.core.incident.ErrorBoundary;
import java.time.Clock;
import java.util.Optional;

/**
 * What every client connection of one gateway shares besides the upstreams.
 *
 * @param trail the audit records (and metrics) of every request
 * @param perClient calls each client may make per period (its buckets)
 * @param parked calls of stateless clients waiting for their next round
 * @param tools what the gateway learnt of the tools it listed
 * @param boundary core's recorder over the gateway's incident store: what a client connection's own
 *     failures and refusals become (so every ref a client sees resolves); a connection records
 *     through {@link ErrorBoundary#serving} its caller
 * @param access the authorization rules, if any (none: everything is allowed)
 * @param clock what dates the incidents
 * @param pins the upstreams' pinned definitions against what they list
 * @param forwarding where a parked call's round for another replica goes ({@link ParkedForwarding#none()}: one process)
 * @param draining completes when the gateway starts draining (listen streams then end gracefully)
 * @param tasks who created each task the upstreams run
 * @param toolScopes the scopes each tool needs of the caller's token (none without an authenticator)
 */
public record Services(AuditTrail trail, ClientRates perClient, ParkedCalls parked, ToolCatalog tools,
                       ErrorBoundary boundary, Optional<AccessPolicy> access, Clock clock,
                       PinWatch pins, ParkedForwarding forwarding,
                       java.util.concurrent.CompletionStage<Void> draining, TaskOwners tasks,
                       java.util.function.Function<String, java.util.Set<String>> toolScopes) {

    public GatewayMetrics metrics() {
        return trail.metrics();
    }
}
