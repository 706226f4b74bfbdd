package dev.warden.e2e.attack;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/** The highest VmRSS of the target seen while an attack runs, read every 100 ms. */
final class RssPeak {

    private final AtomicLong peak = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;

    RssPeak(Target target) {
        peak.set(target.rssMiB());
        thread = Thread.ofPlatform().daemon().name("rss-peak").start(() -> {
            while (running.get()) {
                peak.accumulateAndGet(target.rssMiB(), Math::max);
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    long stop() throws InterruptedException {
        running.set(false);
        thread.join(2_000);
        return peak.get();
    }
}
