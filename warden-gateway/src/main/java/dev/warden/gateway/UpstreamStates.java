package dev.warden.gateway;

import dev.warden.gateway.config.Upstream;
import dev.warden.gateway.internal.limits.ConnectionSlots;
import dev.warden.gateway.internal.upstream.UpstreamLink;
import dev.warden.gateway.view.UpstreamState;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Makes {@link UpstreamState}s from the gateway's links, beside Gateway so that it only asks. */
final class UpstreamStates {

    private UpstreamStates() {
    }

    /** @param slots each upstream's connections, by its name */
    static List<UpstreamState> of(List<UpstreamLink> links, Map<String, ConnectionSlots> slots) {
        return links.stream().map(link -> of(link, slots.get(link.name()))).toList();
    }

    private static UpstreamState of(UpstreamLink link, ConnectionSlots slots) {
        Upstream spec = link.spec();
        CircuitBreaker breaker = link.guard().breaker();
        float rate = breaker.getMetrics().getFailureRate();
        return new UpstreamState(spec.name(), spec.serverPerConnection() ? "stdio" : "http", spec.perClient(),
                breaker(breaker.getState()), rate < 0 ? Optional.empty() : Optional.of(rate),
                slots == null ? 0 : slots.inUse(), spec.limits().maxConnections(), link.connected().isPresent(),
                spec.pin().map(p -> p.mode().name()));
    }

    static UpstreamState.Breaker breaker(CircuitBreaker.State state) {
        return switch (state) {
            case CLOSED -> UpstreamState.Breaker.CLOSED;
            case OPEN -> UpstreamState.Breaker.OPEN;
            case HALF_OPEN -> UpstreamState.Breaker.HALF_OPEN;
            default -> UpstreamState.Breaker.OTHER;
        };
    }
}
