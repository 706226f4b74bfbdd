package dev.warden.client;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How the client reconnects after its connection died: up to {@code maxAttempts} tries, waiting
 * {@code initialDelay} doubled each time up to {@code maxDelay}, each wait spread by ±{@code jitter}
 * so that many clients do not come back at the same instant.
 */
public record ReconnectPolicy(int maxAttempts, Duration initialDelay, Duration maxDelay, double jitter) {

    public ReconnectPolicy {
        if (maxAttempts < 0) {
            throw new IllegalArgumentException("maxAttempts must be at least 0, got " + maxAttempts);
        }
        if (initialDelay == null || initialDelay.isNegative()) {
            throw new IllegalArgumentException("initialDelay must be zero or positive, got " + initialDelay);
        }
        if (maxDelay == null || maxDelay.compareTo(initialDelay) < 0) {
            throw new IllegalArgumentException("maxDelay must be at least initialDelay, got " + maxDelay);
        }
        if (!(jitter >= 0 && jitter <= 1)) {
            throw new IllegalArgumentException("jitter must be between 0 and 1, got " + jitter);
        }
    }

    /** 5 attempts, 200 ms doubling to 5 s, ±20%. */
    public static ReconnectPolicy ofDefaults() {
        return new ReconnectPolicy(5, Duration.ofMillis(200), Duration.ofSeconds(5), 0.2);
    }

    /** No reconnection: a dead connection fails every later call with ConnectionClosedException. */
    public static ReconnectPolicy none() {
        return new ReconnectPolicy(0, Duration.ZERO, Duration.ZERO, 0);
    }

    /** The wait before attempt {@code attempt} (1-based). */
    public Duration delay(int attempt) {
        long base = initialDelay.toMillis();
        long capped = Math.min(maxDelay.toMillis(), base << Math.min(30, Math.max(0, attempt - 1)));
        double spread = 1 + (ThreadLocalRandom.current().nextDouble() * 2 - 1) * jitter;
        return Duration.ofMillis(Math.max(0, Math.round(capped * spread)));
    }
}
