package dev.warden.audit.internal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The audit's budget and rate: each request takes one from the budget, and waits until a
 * {@code 1/rate} second has passed since the one before. Time is the injected clock's; the wait is
 * the injected pause's, so a test's clock moves only when the audit would have waited.
 */
public final class Pacer {

    /** How the pacer waits (a thread's sleep, or a test clock's advance). */
    @FunctionalInterface
    public interface Pause {
        void pause(Duration duration) throws InterruptedException;
    }

    private final int budget;
    private final Duration interval;
    private final Clock clock;
    private final Pause pause;
    private int used;
    private Instant last;

    public Pacer(int budget, int perSecond, Clock clock, Pause pause) {
        this.budget = budget;
        this.interval = Duration.ofNanos(1_000_000_000L / perSecond);
        this.clock = clock;
        this.pause = pause;
    }

    /** Takes one request from the budget, after waiting for the rate; false, and no wait, when none is left. */
    public boolean take() {
        if (used >= budget) {
            return false;
        }
        if (last != null) {
            Duration since = Duration.between(last, clock.instant());
            if (since.compareTo(interval) < 0) {
                try {
                    pause.pause(interval.minus(since));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        last = clock.instant();
        used++;
        return true;
    }

    /**
     * Counts {@code n} requests sent without asking first (a handshake's second request): they are
     * spent whether or not they fit, and the next {@link #take()} knows.
     */
    public void charge(int n) {
        used += Math.max(0, n);
    }

    /** Whether {@code n} more requests fit in the budget. */
    public boolean has(int n) {
        return used + n <= budget;
    }

    public int used() {
        return used;
    }

    public int budget() {
        return budget;
    }
}
