package dev.warden.store.redis;

import dev.warden.core.cluster.ReplicaBus;
import dev.warden.gateway.config.Redis;
import dev.warden.store.redis.internal.BusInbox;
import dev.warden.store.redis.internal.Envelopes;
import dev.warden.store.redis.internal.Heartbeats;
import dev.warden.store.redis.internal.Keys;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The replicas' bus on Redis ({@code redis:} in warden.yaml): pub/sub messages signed with a key the
 * replicas share (so whoever can PUBLISH on Redis cannot make a replica act), membership by
 * heartbeats in one sorted set, facts as expiring hashes. Nothing throws once connected: while
 * Redis is away a send is false and a read empty. One Redis server (not Redis Cluster). Channels,
 * signatures, leases and what each replica sees: docs/operations/redis.md.
 */
public final class RedisReplicaBus implements ReplicaBus {

    /** How long a heartbeat lasts unless refreshed, by default. */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(3);
    /**
     * The label the bus's keys are derived with from the keys of portable sessions
     * ({@code SessionKeys.derived(KEY_LABEL)}): a key for one use is worthless for the other.
     */
    public static final String KEY_LABEL = "warden replica bus v1";
    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final SecureRandom RANDOM = new SecureRandom();
    /** HSET then PEXPIRE: one round trip, and never a fact without its expiry. */
    private static final String PUT = "redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]); "
            + "return redis.call('PEXPIRE', KEYS[1], ARGV[3])";

    private final String self;
    private final Keys keys;
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final StatefulRedisPubSubConnection<String, String> subscription;
    private final Envelopes envelopes;
    private final BusInbox inbox;
    private final Heartbeats heartbeats;
    private final AtomicBoolean closed = new AtomicBoolean();

    private RedisReplicaBus(Redis settings, List<byte[]> busKeys, Duration lease, InstantSource clock) {
        this.self = settings.replica().map(name -> name + "_" + random(4)).orElseGet(() -> random(10));
        this.envelopes = new Envelopes(busKeys, clock);
        this.keys = new Keys(settings.cluster());
        RedisURI uri = RedisURI.create(settings.url());
        uri.setTimeout(RedisStore.HANDSHAKE_TIMEOUT);
        this.client = RedisClient.create(uri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(RedisStore.COMMAND_TIMEOUT))
                .socketOptions(SocketOptions.builder().connectTimeout(RedisStore.CONNECT_TIMEOUT).build())
                .build());
        this.inbox = new BusInbox(self, envelopes);
        String mine = keys.replicaChannel(self);
        String all = keys.everyReplicaChannel();
        try {
            this.connection = client.connect();
            this.subscription = client.connectPubSub();
            subscription.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    inbox.arrived(message, all.equals(channel));
                }
            });
            // Lettuce subscribes to these again by itself after a reconnection.
            subscription.sync().subscribe(mine, all);
        } catch (RuntimeException e) {
            inbox.close();
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            // Not e's message: it may carry the URL, and with it the password.
            throw new IllegalStateException("Redis at " + settings.where() + " cannot be reached for the replicas' bus ("
                    + e.getClass().getSimpleName() + ")");
        }
        this.heartbeats = new Heartbeats(connection.sync(), keys, self, lease);
        heartbeats.start();
    }

    /**
     * Joins the replicas of {@code settings.cluster()} with {@link #DEFAULT_LEASE}, signing with
     * the first of {@code keys} and accepting messages signed with any (each at least 32 bytes;
     * derive them with {@link #KEY_LABEL}).
     */
    public static RedisReplicaBus connect(Redis settings, List<byte[]> keys) {
        return connect(settings, keys, DEFAULT_LEASE);
    }

    /**
     * Joins with heartbeats lasting {@code lease}. Throws {@link IllegalStateException} (naming
     * where, never a password) when Redis cannot be reached now.
     */
    public static RedisReplicaBus connect(Redis settings, List<byte[]> keys, Duration lease) {
        return connect(settings, keys, lease, InstantSource.system());
    }

    /** With the clock that dates and checks envelopes (tests move it). */
    static RedisReplicaBus connect(Redis settings, List<byte[]> keys, Duration lease, InstantSource clock) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(clock, "clock");
        if (lease.toMillis() < 30) {
            throw new IllegalArgumentException("lease must be at least 30 ms, not " + lease);
        }
        return new RedisReplicaBus(settings, keys, lease, clock);
    }

    /**
     * {@code n} of [A-Za-z0-9]: 10 make a whole id (about 59 bits, so two replicas do not draw the
     * same), 4 the per-run part of a configured one (about 24 bits: a restart under the same name
     * all but never takes the id of the run before).
     */
    private static String random(int n) {
        StringBuilder id = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            id.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return id.toString();
    }

    /**
     * This run's id: {@code redis.replica}, {@code _} and 4 random characters, or 10 random ones.
     * New at each start, so that ids made from it (a server's question to a client,
     * {@code w:<replica>:n<number>}, numbered from 1 again by each run) never name a question of
     * the run before, which a late answer would otherwise complete.
     */
    @Override
    public String self() {
        return self;
    }

    @Override
    public boolean send(String to, String topic, String body) {
        ReplicaBus.word("replica", to);
        return publish(keys.replicaChannel(to), to, topic, body);
    }

    @Override
    public boolean broadcast(String topic, String body) {
        return publish(keys.everyReplicaChannel(), Envelopes.EVERYONE, topic, body);
    }

    private boolean publish(String channel, String to, String topic, String body) {
        ReplicaBus.word("topic", topic);
        Objects.requireNonNull(body, "body");
        if (closed.get()) {
            return false;
        }
        try {
            connection.sync().publish(channel, envelopes.seal(self, to, topic, body));
            return true; // sent; whether anyone was there to get it is not the sender's to know
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    public void on(String topic, Handler handler) {
        ReplicaBus.word("topic", topic);
        inbox.on(topic, handler);
    }

    /** How many messages this replica refused (unsigned, badly signed, out of their time, replayed). */
    long refused() {
        return inbox.refused();
    }

    /** How many heartbeats in a row failed to reach Redis. */
    long missedBeats() {
        return heartbeats.missed();
    }

    /** From the view of the last refresh (see the class comment for how stale it may be); this replica while open. */
    @Override
    public boolean alive(String id) {
        if (id.equals(self)) {
            return !closed.get();
        }
        return !closed.get() && heartbeats.alive(id);
    }

    @Override
    public boolean put(String key, String field, String value, Duration ttl) {
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(value, "value");
        long millis = Math.max(1, ttl.toMillis());
        try {
            connection.sync().eval(PUT, ScriptOutputType.INTEGER, new String[] {keys.fact(key)},
                    field, value, Long.toString(millis));
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    public boolean remove(String key, String field) {
        try {
            connection.sync().hdel(keys.fact(key), field);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    public Optional<Map<String, String>> read(String key) {
        try {
            return Optional.of(Map.copyOf(connection.sync().hgetall(keys.fact(key))));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Leaves: stops receiving, and removes its heartbeat so the others see it down at their next refresh. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            heartbeats.leave();
            shutdown();
        }
    }

    /** Stops as if killed: no goodbye, so the others see it down only once its heartbeat lapses. */
    void kill() {
        if (closed.compareAndSet(false, true)) {
            heartbeats.stop();
            shutdown();
        }
    }

    private void shutdown() {
        inbox.close();
        subscription.close();
        connection.close();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }

    @Override
    public String toString() {
        return "RedisReplicaBus[" + self + "]";
    }
}
