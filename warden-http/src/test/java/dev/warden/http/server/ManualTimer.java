package dev.warden.http.server;

import dev.warden.http.server.internal.settings.ResumeWindow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A resume window's timer the test moves by hand: a task runs, on the test's thread, once the test
 * has advanced past its due time, never by itself. A test of a resumption then never races the
 * window under load, and a test of the window's end advances time rather than waiting it out.
 */
final class ManualTimer implements ResumeWindow.Timer {

    private record Due(Duration at, Runnable task) {
    }

    private Duration now = Duration.ZERO;
    private final List<Due> pending = new ArrayList<>();

    @Override
    public synchronized void after(Duration delay, Runnable task) {
        pending.add(new Due(now.plus(delay), task));
    }

    /** Moves time on by {@code by} and runs the tasks then due, in the order they fell due. */
    void advance(Duration by) {
        List<Due> due = new ArrayList<>();
        synchronized (this) {
            now = now.plus(by);
            pending.removeIf(d -> d.at().compareTo(now) <= 0 && due.add(d));
        }
        due.sort((x, y) -> x.at().compareTo(y.at()));
        due.forEach(d -> d.task().run());
    }

    /**
     * Lets windows of {@code window} pass, one after another, until {@code done} counts down: the
     * server starts a window when it notices a dead connection, at a write the test does not see,
     * so each window the test lets pass is followed by a short look; false after 20 s (a failure).
     */
    boolean passWindowsUntil(Duration window, CountDownLatch done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            advance(window);
            if (done.await(50, TimeUnit.MILLISECONDS)) {
                return true;
            }
        }
        return false;
    }
}
