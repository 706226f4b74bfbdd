package dev.warden.store.redis;

import dev.warden.gateway.config.Redis;
import dev.warden.gateway.shared.SharedBreakers;
import dev.warden.gateway.shared.SharedRates;
import dev.warden.store.redis.internal.Keys;
import dev.warden.store.redis.internal.Reachability;
import dev.warden.store.redis.internal.RedisBreakers;
import dev.warden.store.redis.internal.RedisRates;
import dev.warden.store.redis.internal.RedisSecrets;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.net.SocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * The state several gateway replicas share on one Redis ({@code redis:} in warden.yaml): their rate
 * limits ({@link #rates()}), the breakers one of them opened ({@link #breakers()}), and the key
 * that signs request states ({@link #requestStateKey()}). Three connections: commands for the
 * buckets (binary values), commands for the rest, and the breakers' subscription.
 *
 * <p>Starting needs Redis (the signing key is read once, here): {@link #connect} fails, naming
 * where (never the password), when it cannot be reached. Afterwards each concern has its own
 * fallback while Redis is away: see {@link RedisRates}, {@link RedisBreakers}, {@link RedisSecrets}.
 * Commands are refused at once while the connection is down (no queueing), and time out after
 * {@link #COMMAND_TIMEOUT}.
 */
public final class RedisStore implements AutoCloseable {

    /** How long a command may take: a Redis that hangs costs a call this much, once per {@code Reachability.PAUSE}. */
    public static final Duration COMMAND_TIMEOUT = Duration.ofMillis(500);
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    /**
     * How long a connection's handshake (HELLO, AUTH) may take: Lettuce bounds it by the URI's
     * timeout. It is not a command's budget (commands keep {@link #COMMAND_TIMEOUT} through the
     * client's timeout options), so a replica starting on a busy machine is not refused at 500 ms.
     */
    static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(5);

    private final RedisClient client;
    private final StatefulRedisConnection<String, byte[]> bucketConnection;
    private final StatefulRedisConnection<String, String> connection;
    private final StatefulRedisPubSubConnection<String, String> subscription;
    private final RedisRates rates;
    private final RedisBreakers breakers;
    private final byte[] requestStateKey;

    private RedisStore(Redis settings, Clock clock) {
        Keys keys = new Keys(settings.cluster());
        RedisURI uri = RedisURI.create(settings.url());
        uri.setTimeout(HANDSHAKE_TIMEOUT);
        this.client = RedisClient.create(uri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(COMMAND_TIMEOUT))
                .socketOptions(SocketOptions.builder().connectTimeout(CONNECT_TIMEOUT).build())
                .build());
        try {
            this.bucketConnection = client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
            this.connection = client.connect();
            this.subscription = client.connectPubSub();
        } catch (RuntimeException e) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            // Not e's message: it may carry the URL, and with it the password.
            throw new IllegalStateException("Redis at " + settings.where() + " cannot be reached ("
                    + e.getClass().getSimpleName() + ")");
        }
        Reachability reachability = new Reachability(clock, settings.where());
        this.rates = new RedisRates(bucketConnection, keys, clock, settings.rateLimitsWhenDown(), reachability);
        try {
            this.breakers = new RedisBreakers(connection, subscription, keys, clock, reachability);
            this.requestStateKey = RedisSecrets.requestStateKey(connection, keys);
        } catch (RuntimeException e) {
            // A timeout, or an ACL that refuses SUBSCRIBE or SET: nothing half-built is left connected.
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            throw new IllegalStateException("Redis at " + settings.where() + " refused what the gateway needs ("
                    + e.getClass().getSimpleName() + ")");
        }
        // What was announced while the subscription was down is read again from the keys, off the I/O thread.
        subscription.addListener(new RedisConnectionStateListener() {
            @Override
            public void onRedisConnected(RedisChannelHandler<?, ?> handler, SocketAddress address) {
                Thread.ofVirtual().name("warden-redis-resync").start(breakers::resync);
            }
        });
    }

    /** Connects, and reads (or makes) the shared signing key. */
    public static RedisStore connect(Redis settings, Clock clock) {
        return new RedisStore(Objects.requireNonNull(settings, "settings"), Objects.requireNonNull(clock, "clock"));
    }

    /** Per-client and per-tool rate limits counted by all replicas. */
    public SharedRates rates() {
        return rates;
    }

    /** Breakers opened by any replica, seen by all. */
    public SharedBreakers breakers() {
        return breakers;
    }

    /** The key every replica signs and verifies 2026-07-28 request states with (a copy; 32 bytes). */
    public byte[] requestStateKey() {
        return requestStateKey.clone();
    }

    /**
     * Whether Redis answers a PING now (within {@link #COMMAND_TIMEOUT}): what the gateway's
     * readiness asks, so that a load balancer stops sending calls to a replica whose limits and
     * breakers are no longer shared.
     */
    public boolean reachable() {
        try {
            return "PONG".equals(connection.sync().ping());
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    public void close() {
        subscription.close();
        connection.close();
        bucketConnection.close();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }

    @Override
    public String toString() {
        return "RedisStore";
    }
}
