package dev.warden.store.redis;

import dev.warden.core.cluster.ReplicaBus;
import dev.warden.gateway.config.Redis;
import dev.warden.store.redis.internal.BusInbox;
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
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The replicas' bus on Redis ({@code redis:} in warden.yaml). Messages go by pub/sub: one channel
 * per replica and one for all ({@code warden:<cluster>:to:<id>}, {@code warden:<cluster>:to-all}),
 * each carrying who sent it, its topic and its body; a replica ignores its own broadcasts. They are
 * handled one at a time, in arrival order, on a virtual thread of this replica's. Liveness is a
 * heartbeat key per replica ({@code SET … PX lease}, refreshed every third of the lease) and
 * {@link #alive} answers from a view refreshed on the same timer: a replica that died is seen down
 * at most lease + lease/3 after its last heartbeat, one that started is seen up within lease/3.
 * Facts are one hash per key, written with their expiry in one round trip (a script).
 *
 * <p>Nothing throws once connected: while Redis cannot be reached a send or a write is false and a
 * read is empty (commands are refused at once, not queued), and when Redis returns Lettuce
 * reconnects and subscribes to both channels again. One Redis server (not Redis Cluster).
 */
public final class RedisReplicaBus implements ReplicaBus {

    /** How long a heartbeat lasts unless refreshed, by default. */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(3);
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
    private final BusInbox inbox;
    private final Heartbeats heartbeats;
    private final AtomicBoolean closed = new AtomicBoolean();

    private RedisReplicaBus(Redis settings, Duration lease) {
        this.self = settings.replica().orElseGet(RedisReplicaBus::newId);
        this.keys = new Keys(settings.cluster());
        RedisURI uri = RedisURI.create(settings.url());
        uri.setTimeout(RedisStore.COMMAND_TIMEOUT);
        this.client = RedisClient.create(uri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(RedisStore.COMMAND_TIMEOUT))
                .socketOptions(SocketOptions.builder().connectTimeout(RedisStore.CONNECT_TIMEOUT).build())
                .build());
        this.inbox = new BusInbox(self);
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

    /** Joins the replicas of {@code settings.cluster()}, as {@code settings.replica()} or a new id, with {@link #DEFAULT_LEASE}. */
    public static RedisReplicaBus connect(Redis settings) {
        return connect(settings, DEFAULT_LEASE);
    }

    /**
     * Joins with heartbeats lasting {@code lease}. Throws {@link IllegalStateException} (naming
     * where, never a password) when Redis cannot be reached now.
     */
    public static RedisReplicaBus connect(Redis settings, Duration lease) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(lease, "lease");
        if (lease.toMillis() < 30) {
            throw new IllegalArgumentException("lease must be at least 30 ms, not " + lease);
        }
        return new RedisReplicaBus(settings, lease);
    }

    /** 10 of [A-Za-z0-9]: short in stream ids, and about 59 bits, so two replicas do not draw the same. */
    private static String newId() {
        StringBuilder id = new StringBuilder(10);
        for (int i = 0; i < 10; i++) {
            id.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return id.toString();
    }

    @Override
    public String self() {
        return self;
    }

    @Override
    public boolean send(String to, String topic, String body) {
        ReplicaBus.word("replica", to);
        return publish(keys.replicaChannel(to), topic, body);
    }

    @Override
    public boolean broadcast(String topic, String body) {
        return publish(keys.everyReplicaChannel(), topic, body);
    }

    private boolean publish(String channel, String topic, String body) {
        ReplicaBus.word("topic", topic);
        Objects.requireNonNull(body, "body");
        if (closed.get()) {
            return false;
        }
        try {
            connection.sync().publish(channel, BusInbox.envelope(self, topic, body));
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
