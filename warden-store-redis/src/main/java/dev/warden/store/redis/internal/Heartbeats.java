package dev.warden.store.redis.internal;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * This replica's heartbeat, and its view of the others'. Membership is one sorted set,
 * {@code warden:<cluster>:replicas}, each replica's score the time of its last beat: every
 * {@link #every} (a third of the lease) one script adds this replica at Redis' own time, drops
 * those not seen for a lease, and returns who is left. One key, read whole: no SCAN, whose cost
 * would grow with every other key of the keyspace (sessions' facts live for hours). Redis' clock,
 * not the replicas': replicas whose clocks differ still agree on who beat when. Who is alive is
 * answered from the last view, with no round trip per question: a replica that stopped is seen
 * down at most lease + a third of it after its last beat, one that started within a third of the
 * lease. While Redis cannot be reached the view is not refreshed and stays as it was last known:
 * a replica seen alive still runs what it was running (saying it stopped would tell clients that
 * sending again is safe), and a send to it fails anyway while Redis is away.
 */
public final class Heartbeats {

    /**
     * ZADD at Redis' TIME, ZREMRANGEBYSCORE what is older than the lease, PEXPIRE the set (so a
     * group whose replicas are all gone leaves nothing behind), and the members left.
     */
    private static final String BEAT = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local lease = tonumber(ARGV[2])
            redis.call('ZADD', KEYS[1], string.format('%d', now), ARGV[1])
            redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. string.format('%d', now - lease))
            redis.call('PEXPIRE', KEYS[1], 2 * lease)
            return redis.call('ZRANGE', KEYS[1], 0, -1)
            """;

    private final RedisCommands<String, String> redis;
    private final Keys keys;
    private final String self;
    private final Duration lease;
    private final ScheduledExecutorService timer;
    private volatile Set<String> alive = Set.of();
    private final java.util.concurrent.atomic.AtomicLong missed = new java.util.concurrent.atomic.AtomicLong();

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
            List<String> members = redis.eval(BEAT, ScriptOutputType.MULTI, new String[] {keys.replicas()},
                    self, Long.toString(lease.toMillis()));
            alive = Set.copyOf(members);
            missed.set(0);
        } catch (RuntimeException e) {
            missed.incrementAndGet();
            // Redis away: the view stays as last known (see the class comment).
        }
    }

    /** How many beats in a row failed (Redis away): 4 make more than a lease. */
    public long missed() {
        return missed.get();
    }

    /** Whether {@code id} had beaten within the lease at the last refresh. */
    public boolean alive(String id) {
        return alive.contains(id);
    }

    /** Stops beating: this replica drops out of the others' view after the lease (a replica killed). */
    public void stop() {
        timer.shutdownNow();
    }

    /** Stops beating and leaves the set: the others see this replica down at their next refresh. */
    public void leave() {
        stop();
        try {
            redis.zrem(keys.replicas(), self);
        } catch (RuntimeException e) {
            // it drops out after the lease anyway
        }
    }
}
