package dev.warden.gateway.health;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A probe whose answer is reused for a while: {@code /readyz} answers without credentials, so a
 * flood of it must not become a flood of PINGs or database connections. A failing or throwing
 * probe is remembered as unhealthy for the same time.
 */
public final class CachedProbe implements HealthCheck.Probe {

    private final HealthCheck.Probe probe;
    private final Duration ttl;
    private final Clock clock;
    private Instant asked = Instant.MIN;
    private boolean healthy;

    private CachedProbe(HealthCheck.Probe probe, Duration ttl, Clock clock) {
        this.probe = Objects.requireNonNull(probe, "probe");
        this.ttl = Objects.requireNonNull(ttl, "ttl");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("a cached probe's ttl must be positive, got " + ttl);
        }
    }

    /** {@code probe}, asked at most once per {@code ttl} of {@code clock}. */
    public static CachedProbe of(HealthCheck.Probe probe, Duration ttl, Clock clock) {
        return new CachedProbe(probe, ttl, clock);
    }

    @Override
    public synchronized boolean healthy() {
        Instant now = clock.instant();
        if (now.isBefore(asked.plus(ttl))) {
            return healthy;
        }
        boolean answer;
        try {
            answer = probe.healthy();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false; // the check ran out of its bound: not remembered, the next one asks again
        } catch (Exception e) {
            answer = false;
        }
        healthy = answer;
        asked = now;
        return answer;
    }
}
