package dev.warden.gateway;

import dev.warden.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A clock the test moves on by hand: expiry is tested without waiting for it. It also tells when
 * the gateway's idle-connection watcher (its threads are named {@code warden-idle-…}) has looked
 * at it since the last move, so a test can wait for the watcher instead of sleeping.
 */
final class MovableClock extends MutableClock {

    /** Reads by the idle watcher since the clock was last moved, one permit each. */
    private final Semaphore watcherLooks = new Semaphore(0);

    MovableClock() {
        super(Instant.parse("2026-11-24T00:00:00Z"));
    }

    @Override
    public Instant instant() {
        synchronized (watcherLooks) {
            if (Thread.currentThread().getName().startsWith("warden-idle-")) {
                watcherLooks.release();
            }
            return super.instant();
        }
    }

    @Override
    public void advance(Duration by) {
        synchronized (watcherLooks) {
            super.advance(by);
            watcherLooks.drainPermits();
        }
    }

    /**
     * Waits until the idle watcher has begun two passes since the clock last moved: the first of
     * them saw the new time and has ended (one watcher thread per upstream runs its passes in
     * turn). The bound only keeps a broken watcher from hanging the test.
     */
    void awaitWatcherPass() throws InterruptedException {
        if (!watcherLooks.tryAcquire(2, 30, TimeUnit.SECONDS)) {
            throw new AssertionError("the idle watcher did not look at the clock");
        }
    }
}
