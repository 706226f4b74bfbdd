package dev.warden.client.http;

import java.util.concurrent.TimeUnit;

/**
 * The clock and the wait behind an event stream's retry delay. The delay counts from the moment
 * the stream was seen to end, not from after what follows (closing it, handing its last event on),
 * so that work is not added to the server's delay. Injected, so that a test checks the wait without
 * depending on the machine's speed.
 */
interface RetryTimer {

    /** The JVM's monotonic clock and {@link Thread#sleep}. */
    RetryTimer SYSTEM = new RetryTimer() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void sleepNanos(long nanos) throws InterruptedException {
            TimeUnit.NANOSECONDS.sleep(nanos);
        }
    };

    long nanoTime();

    void sleepNanos(long nanos) throws InterruptedException;

    /** Waits until {@code delayMillis} after {@code sinceNanos} (a {@link #nanoTime} reading); not at all if that passed. */
    default void awaitDelay(long sinceNanos, long delayMillis) throws InterruptedException {
        long left = sinceNanos + TimeUnit.MILLISECONDS.toNanos(delayMillis) - nanoTime();
        if (left > 0) {
            sleepNanos(left);
        }
    }
}
