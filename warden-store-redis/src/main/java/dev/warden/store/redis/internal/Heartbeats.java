package dev.warden.store.redis.internal;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * This replica's heartbeat, and its view of the others'. Every {@link #every} (a third of the
 * lease) it sets its key with the lease as PX, then lists the replicas' keys: who is alive is
 * answered from that list, with no round trip per question. So a replica that stopped is seen
 * down at most lease + a third of it after its last heartbeat, and one that started is seen up
 * within a third of the lease. While Redis cannot be reached the list is not refreshed, and once
 * it is older than the lease nobody else counts as alive (their heartbeats cannot be current).
 */
public final class Heartbeats {

    private final RedisCommands<String, String> redis;
    private final Keys keys;
    private final String self;
    private final Duration lease;
    private final ScheduledExecutorService timer;
    private volatile Set<String> alive = Set.of();
    private volatile long refreshedAt = System.nanoTime() - Long.MAX_VALUE / 2;

    public Heartbeats(RedisCommands<String, String> redis, Keys keys, String self, Duration lease) {
        this.redis = redis;
        this.keys = keys;
        this.self = self;
        this.lease = lease;
        this.timer = Executors.newSingleThreadScheduledExecutor(Thread.ofVirtual().name("warden-heartbeat").factory());
    }

    /** How often the heartbeat is set and the view refreshed: a third of the lease. */
    public Duration every() {
        return lease.dividedBy(3);
    }

    /** Beats once now (so the others and this view know at once), then every third of the lease. */
    public void start() {
        beat();
        timer.scheduleWithFixedDelay(this::beat, every().toMillis(), every().toMillis(), TimeUnit.MILLISECONDS);
    }

    private void beat() {
        try {
            redis.set(keys.replica(self), "1", SetArgs.Builder.px(lease.toMillis()));
            Set<String> seen = new HashSet<>();
            ScanArgs args = ScanArgs.Builder.matches(keys.replicaPrefix() + "*").limit(500);
            KeyScanCursor<String> cursor = redis.scan(args);
            while (true) {
                for (String key : cursor.getKeys()) {
                    seen.add(key.substring(keys.replicaPrefix().length()));
                }
                if (cursor.isFinished()) {
                    break;
                }
                cursor = redis.scan(cursor, args);
            }
            alive = Set.copyOf(seen);
            refreshedAt = System.nanoTime();
        } catch (RuntimeException e) {
            // Redis away: the view ages, and is no longer trusted after a lease (see alive).
        }
    }

    /** Whether {@code id}'s heartbeat was current at the last refresh, no older than the lease. */
    public boolean alive(String id) {
        return System.nanoTime() - refreshedAt < lease.toNanos() && alive.contains(id);
    }

    /** Stops beating: the key lapses after the lease (a replica killed). */
    public void stop() {
        timer.shutdownNow();
    }

    /** Stops beating and removes the key: the others see this replica down at their next refresh. */
    public void leave() {
        stop();
        try {
            redis.del(keys.replica(self));
        } catch (RuntimeException e) {
            // it lapses after the lease anyway
        }
    }
}
