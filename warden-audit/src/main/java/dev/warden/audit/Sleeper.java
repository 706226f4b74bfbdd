package dev.warden.audit;

import java.time.Duration;

/** How an audit waits between requests to keep to its rate; tests pass one that only advances a clock. */
@FunctionalInterface
public interface Sleeper {

    void sleep(Duration duration) throws InterruptedException;

    /** The thread sleeps. */
    static Sleeper ofThread() {
        return duration -> Thread.sleep(duration);
    }
}
