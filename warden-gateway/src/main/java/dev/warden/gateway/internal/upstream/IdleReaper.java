package dev.warden.gateway.internal.upstream;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The watcher that closes an upstream's idle extra connections ({@link UpstreamPool#closeIdle}):
 * started with the first extra connection, it looks a few times per idle period (at most every
 * 30 s). When a connection is idle is decided by the gateway's clock; only how often it looks is
 * real time, a scheduled task that stopping cancels at once.
 */
final class IdleReaper {

    private final String name;
    private final Duration period;
    private final Runnable pass;
    private ScheduledExecutorService timer;
    private boolean stopped;

    IdleReaper(String name, Duration closeIdleAfter, Runnable pass) {
        this.name = name;
        this.period = Duration.ofMillis(Math.clamp(closeIdleAfter.toMillis() / 4, 10, 30_000));
        this.pass = pass;
    }

    /** Starts the watcher, once. */
    synchronized void start() {
        if (timer != null || stopped) {
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(Thread.ofVirtual().name("warden-idle-" + name).factory());
        timer.scheduleWithFixedDelay(pass, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    synchronized void stop() {
        stopped = true;
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
