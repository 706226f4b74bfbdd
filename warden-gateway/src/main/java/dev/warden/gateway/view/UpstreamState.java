package dev.warden.gateway.view;

import java.util.Objects;
import java.util.Optional;

/**
 * One upstream as an operator's console shows it now: read from the gateway, never changing it.
 * Like every name the gateway gives out, it names the upstream and how it is reached (its kind),
 * never its command line, URL or credentials.
 *
 * @param transport {@code stdio} (a process the gateway starts) or {@code http}
 * @param perClient one connection per client connection instead of one shared by all
 * @param breaker the upstream's circuit breaker now
 * @param failureRate the breaker's failure rate in percent over its window; empty until it has enough calls
 * @param connections connections (stdio: processes) open to it now
 * @param maxConnections how many it may have at once
 * @param connected whether its first connection is up (a lazy upstream is connected on its first use)
 * @param pinMode {@code WARN} or {@code BLOCK} when its definitions are pinned
 */
public record UpstreamState(String name, String transport, boolean perClient, Breaker breaker,
        Optional<Float> failureRate, int connections, int maxConnections, boolean connected,
        Optional<String> pinMode) {

    /** A circuit breaker's state, as the console names it. */
    public enum Breaker { CLOSED, OPEN, HALF_OPEN, OTHER }

    public UpstreamState {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(breaker, "breaker");
        Objects.requireNonNull(failureRate, "failureRate");
        Objects.requireNonNull(pinMode, "pinMode");
    }
}
