package dev.warden.gateway.internal;

import dev.warden.core.incident.ErrorBoundary;

/**
 * What every client connection of one gateway shares besides the upstreams.
 *
 * @param trail the audit records (and metrics) of every request
 * @param perClient calls each client may make per period (its buckets)
 * @param parked calls of stateless clients waiting for their next round
 * @param tools what the gateway learnt of the tools it listed
 * @param boundary what a client connection's own failures and refusals become, recorded in the
 *     gateway's incident store (so every ref a client sees resolves)
 */
public record Services(AuditTrail trail, ClientRates perClient, ParkedCalls parked, ToolCatalog tools,
                       ErrorBoundary boundary) {

    public GatewayMetrics metrics() {
        return trail.metrics();
    }
}
