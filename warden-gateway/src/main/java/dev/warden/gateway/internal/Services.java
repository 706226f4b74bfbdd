package dev.warden.gateway.internal;

import dev.warden.core.identity.Caller;
import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.incident.IncidentSink;
import java.time.Clock;
import java.util.Optional;

/**
 * What every client connection of one gateway shares besides the upstreams.
 *
 * @param trail the audit records (and metrics) of every request
 * @param perClient calls each client may make per period (its buckets)
 * @param parked calls of stateless clients waiting for their next round
 * @param tools what the gateway learnt of the tools it listed
 * @param boundary what a client connection's own failures and refusals become, recorded in the
 *     gateway's incident store (so every ref a client sees resolves)
 * @param access the authorization rules, if any (none: everything is allowed)
 * @param incidents the incident store, as {@link CallerIncidents#stamping} writes to it
 * @param clock what dates the incidents
 * @param pins the upstreams' pinned definitions against what they list
 * @param forwarding where a parked call's round for another replica goes ({@link ParkedForwarding#none()}: one process)
 * @param draining completes when the gateway starts draining (listen streams then end gracefully)
 * @param tasks who created each task the upstreams run
 * @param toolScopes the scopes each tool needs of the caller's token (none without an authenticator)
 */
public record Services(AuditTrail trail, ClientRates perClient, ParkedCalls parked, ToolCatalog tools,
                       ErrorBoundary boundary, Optional<AccessPolicy> access, IncidentSink incidents, Clock clock,
                       PinWatch pins, ParkedForwarding forwarding,
                       java.util.concurrent.CompletionStage<Void> draining, TaskOwners tasks,
                       java.util.function.Function<String, java.util.Set<String>> toolScopes) {

    public GatewayMetrics metrics() {
        return trail.metrics();
    }

    /**
     * What a connection's own failures and refusals become: for an authenticated caller, the
     * same, with the caller's subject and client id in each incident.
     */
    ErrorBoundary boundaryFor(Optional<Caller> caller) {
        return caller.map(c -> ErrorBoundary.builder().incidents(CallerIncidents.of(incidents, c)).clock(clock)
                .build()).orElse(boundary);
    }
}
