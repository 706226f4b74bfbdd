package dev.warden.store.redis;

import dev.warden.gateway.config.Redis;
import dev.warden.testkit.LocalRedis;
import dev.warden.testkit.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/** Two (or more) gateway replicas' stores over one real Redis, on one movable clock. */
final class Replicas implements AutoCloseable {

    static final Path DIR = Path.of("target", "redis");

    final LocalRedis redis;
    final MutableClock clock = new MutableClock(Instant.parse("2026-07-28T12:00:00Z"));
    private final List<RedisStore> stores = new ArrayList<>();

    Replicas() throws Exception {
        this.redis = LocalRedis.start(DIR);
    }

    RedisStore replica(String cluster) {
        return replica(cluster, Redis.WhenDown.OPEN);
    }

    RedisStore replica(String cluster, Redis.WhenDown whenDown) {
        return replica(cluster, whenDown, clock);
    }

    /** On {@code clock}: a gateway's own (the store must read the same clock as the gateway it serves). */
    RedisStore replica(String cluster, Redis.WhenDown whenDown, java.time.Clock clock) {
        RedisStore store = RedisStore.connect(new Redis(redis.url(), cluster, whenDown), clock);
        stores.add(store);
        return store;
    }

    /** Waits, at most {@code within}, for what arrives asynchronously (a pub/sub message). */
    static void await(BooleanSupplier condition, Duration within, String what) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + within + ": " + what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000); // the next look, not a wait for time
        }
    }

    @Override
    public void close() throws Exception {
        stores.forEach(RedisStore::close);
        redis.close();
    }
}
