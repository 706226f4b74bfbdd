package dev.warden.http.server.internal.session;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A session being connected to its server (and, when restored from a sealed id, initialized
 * again): one request claims the work; the others naming the session wait until it is done, so
 * none reaches a server that is not yet initialized.
 */
final class Connecting {

    /** How long a request waits for a session another request is connecting or restoring. */
    private static final long WAIT_SECONDS = 10;
    private final AtomicBoolean claimed = new AtomicBoolean();
    private final CountDownLatch done = new CountDownLatch(1);

    /** True for the one caller that is to connect the session; false for the others. */
    boolean claim() {
        return claimed.compareAndSet(false, true);
    }

    /** Connected (or the attempt is over): the waiting requests go on. */
    void done() {
        done.countDown();
    }

    /** Waits (bounded) until the session is connected; false if it did not get there in time. */
    boolean awaitDone() {
        try {
            return done.await(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
