package dev.warden.gateway.internal;

import java.time.Duration;

/**
 * The watcher that closes an upstream's idle extra connections ({@link UpstreamPool#closeIdle}):
 * started with the first extra connection, it looks a few times per idle period (at most every
 * 30 s). When a connection is idle is measured by the gateway's clock; only how often it looks
 * is real time.
 */
final class IdleReaper {

    private final String name;
    private final Duration period;
    private final Runnable pass;
    private Thread thread;
    private volatile boolean stopped;

    IdleReaper(String name, Duration closeIdleAfter, Runnable pass) {
        this.name = name;
        this.period = Duration.ofMillis(Math.clamp(closeIdleAfter.toMillis() / 4, 10, 30_000));
        this.pass = pass;
    }

    /** Starts the watcher, once. */
    synchronized void start() {
        if (thread != null || stopped) {
            return;
        }
        thread = Thread.ofVirtual().name("warden-idle-" + name).start(() -> {
            try {
                while (!stopped) {
                    Thread.sleep(period);
                    pass.run();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    synchronized void stop() {
        stopped = true;
        if (thread != null) {
            thread.interrupt();
        }
    }
}
