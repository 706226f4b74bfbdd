package dev.warden.cli;

import dev.warden.gateway.Gateway;
import dev.warden.gateway.config.Redis;
import dev.warden.gateway.health.CachedProbe;
import dev.warden.gateway.health.HealthCheck;
import dev.warden.store.redis.RedisStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * The stores a gateway shares with its other replicas, when warden.yaml names them ({@code redis:});
 * none otherwise, and then nothing is connected or started. Closed with the gateway.
 */
final class SharedStores implements AutoCloseable {

    private final Optional<RedisStore> redis;

    private SharedStores(Optional<RedisStore> redis) {
        this.redis = redis;
    }

    /**
     * Connects what is configured and hands it to the gateway. Throws {@link IllegalStateException}
     * (its message names where, never a password) when a configured store cannot be reached.
     */
    static SharedStores open(Optional<Redis> redis, Gateway.Builder builder) {
        Optional<RedisStore> store = redis.map(r -> RedisStore.connect(r, Clock.systemUTC()));
        store.ifPresent(s -> builder.shared(s.rates(), s.breakers())
                .healthCheck(HealthCheck.of("redis", RedisStore.COMMAND_TIMEOUT.multipliedBy(2),
                        CachedProbe.of(s::reachable, Duration.ofMillis(500), Clock.systemUTC()))));
        return new SharedStores(store);
    }

    @Override
    public void close() {
        redis.ifPresent(RedisStore::close);
    }
}
