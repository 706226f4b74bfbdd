package dev.warden.examples.demo;

import java.time.Duration;
import java.util.Optional;

/** A tiny fixed-window limiter: enough to show RATE_LIMITED with a real retry-after. */
final class FixedWindowLimiter {

    private final int permits;
    private final long windowNanos;
    private long windowStart = System.nanoTime();
    private int used;

    FixedWindowLimiter(int permits, Duration window) {
        this.permits = permits;
        this.windowNanos = window.toNanos();
    }

    /** Empty if the call may go ahead, otherwise how long until the window resets. */
    synchronized Optional<Duration> tryAcquire() {
        long now = System.nanoTime();
        if (now - windowStart >= windowNanos) {
            windowStart = now;
            used = 0;
        }
        if (used < permits) {
            used++;
            return Optional.empty();
        }
        return Optional.of(Duration.ofNanos(windowNanos - (now - windowStart)));
    }
}
