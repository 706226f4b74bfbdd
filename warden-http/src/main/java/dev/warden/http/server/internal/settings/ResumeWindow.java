package dev.warden.http.server.internal.settings;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * How long a response stream waits for its client to resume it, and the timer that runs the wait:
 * the server's timer thread, or a test's timer it moves by hand, so that a test of a resumption
 * does not race a real window under load and a test of the window's end does not wait it out.
 */
public record ResumeWindow(Duration length, Timer timer) {

    /** Runs a task once a delay has passed. */
    @FunctionalInterface
    public interface Timer {
        void after(Duration delay, Runnable task);
    }

    public ResumeWindow {
        Objects.requireNonNull(length, "length");
        Objects.requireNonNull(timer, "timer");
    }

    /** The window on the server's timer thread. */
    public static ResumeWindow on(Duration length, ScheduledExecutorService timers) {
        return new ResumeWindow(length, (delay, task) -> timers.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS));
    }

    /** Runs {@code task} once the window has passed. */
    public void afterItPasses(Runnable task) {
        timer.after(length, task);
    }
}
