package dev.warden.gateway.internal;

import dev.warden.gateway.AuditSink;
import dev.warden.gateway.Limits;
import java.util.Optional;

/**
 * What every client connection of one gateway shares besides the upstreams.
 *
 * @param failClosed refuse calls when the audit sink fails, rather than serve them unrecorded
 * @param perClient calls each client connection may make per period
 * @param parked calls of stateless clients waiting for their next round
 * @param tools what the gateway learnt of the tools it listed
 */
public record Services(AuditSink audit, boolean failClosed, GatewayMetrics metrics, Optional<Limits.Rate> perClient,
                       ParkedCalls parked, ToolCatalog tools) {
}
