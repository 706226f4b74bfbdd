package dev.warden.gateway;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;

/**
 * A clock the test moves on by hand: expiry is tested without waiting for it. It also tells when
 * the gateway's idle-connection watcher (its threads are named {@code warden-idle-…}) has looked
 * at it since the last move, so a test can wait for the watcher instead of sleeping.
 */
final class MovableClock implements InstantSource {

    private Instant now = Instant.parse("2026-11-24T00:00:00Z");
    /** Reads by the idle watcher since the clock was last moved. */
    private int watcherLooks;

    @Override
    public synchronized Instant instant() {
        if (Thread.currentThread().getName().startsWith("warden-idle-")) {
            watcherLooks++;
            notifyAll();
        }
        return now;
    }

    synchronized void advance(Duration by) {
        now = now.plus(by);
        watcherLooks = 0;
    }

    /**
     * Waits until the idle watcher has begun two passes since the clock last moved: the first of
     * them saw the new time and has ended (one watcher thread per upstream runs its passes in turn).
     */
    synchronized void awaitWatcherPass() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (watcherLooks < 2) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("the idle watcher did not look at the clock");
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }
}
