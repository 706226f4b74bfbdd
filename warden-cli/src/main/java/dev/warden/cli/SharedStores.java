package dev.warden.cli;

import dev.warden.core.cluster.ReplicaBus;
import dev.warden.gateway.Gateway;
import dev.warden.gateway.config.Redis;
import dev.warden.gateway.health.CachedProbe;
import dev.warden.gateway.health.HealthCheck;
import dev.warden.http.server.SessionKeys;
import dev.warden.store.redis.RedisReplicaBus;
import dev.warden.store.redis.RedisStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * The stores a gateway shares with its other replicas, when warden.yaml names them ({@code redis:}):
 * the shared limits, breakers and key, and the replicas' bus (one, handed to both the gateway and
 * its HTTP endpoint); none otherwise, and then nothing is connected or started. The bus signs its
 * messages with a key derived from the keys of portable sessions ({@code http.sessions.portable}),
 * which the replicas already share: without them there is no bus, and parked calls and sessions
 * stay on the replica that holds them (said once at start). Closed with the gateway, after the
 * HTTP server has drained and stopped.
 */
final class SharedStores implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("dev.warden.cli");
    /** Why a replica with {@code redis:} has no bus, on its start line and in its log. */
    static final String NO_BUS = "no replicas' bus: http.sessions.portable is not set, so parked calls and "
            + "sessions stay on the replica that holds them";

    private final Optional<RedisStore> redis;
    private final Optional<RedisReplicaBus> bus;

    private SharedStores(Optional<RedisStore> redis, Optional<RedisReplicaBus> bus) {
        this.redis = redis;
        this.bus = bus;
    }

    /**
     * Connects what is configured and hands it to the gateway. Throws {@link IllegalStateException}
     * (its message names where, never a password) when a configured store cannot be reached. The
     * bus only with both {@code redis} and {@code sessionKeys}.
     */
    static SharedStores open(Optional<Redis> redis, Optional<SessionKeys> sessionKeys, Gateway.Builder builder) {
        Optional<RedisStore> store = redis.map(r -> RedisStore.connect(r, Clock.systemUTC()));
        Optional<RedisReplicaBus> bus;
        try {
            bus = redis.flatMap(r -> sessionKeys.map(k -> RedisReplicaBus.connect(r, k.derived(RedisReplicaBus.KEY_LABEL))));
        } catch (RuntimeException e) {
            store.ifPresent(RedisStore::close);
            throw e;
        }
        store.ifPresent(s -> builder.shared(s.rates(), s.breakers())
                .healthCheck(HealthCheck.of("redis", RedisStore.COMMAND_TIMEOUT.multipliedBy(2),
                        CachedProbe.of(s::reachable, Duration.ofMillis(500), Clock.systemUTC()))));
        bus.ifPresent(builder::replicas);
        if (redis.isPresent() && bus.isEmpty()) {
            LOG.log(System.Logger.Level.WARNING, NO_BUS);
        }
        return new SharedStores(store, bus);
    }

    /** The replicas' bus, when there are replicas (for the HTTP endpoint's portable sessions). */
    Optional<ReplicaBus> replicas() {
        return bus.map(b -> b);
    }

    /**
     * What the start line adds: this run's replica id, so that scripts and tests can tell the
     * replicas apart; with Redis but no bus, why there is none.
     */
    String startNote() {
        if (bus.isPresent()) {
            return " replica " + bus.get().self();
        }
        return redis.isPresent() ? " (" + NO_BUS + ")" : "";
    }

    @Override
    public void close() {
        bus.ifPresent(RedisReplicaBus::close);
        redis.ifPresent(RedisStore::close);
    }
}
