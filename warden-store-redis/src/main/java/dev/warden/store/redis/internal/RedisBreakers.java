package dev.warden.store.redis.internal;

import dev.warden.gateway.shared.SharedBreakers;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Breakers opened by any replica, known to all. An opening is written as a key that lives as long
 * as the pause ({@code SET … PX}) and announced on a channel ({@code PUBLISH}); every replica
 * subscribes and keeps the openings in memory, so the question asked on each call ({@link
 * #openUntil}) costs no round trip. Pub/sub rather than a poll: an opening reaches the others in
 * a network round trip instead of a poll period, and costs nothing while nothing opens. What
 * pub/sub loses (messages sent while a replica was disconnected) the keys keep: on every
 * (re)connection of the subscription the replica reads them all again ({@link #resync}).
 *
 * <p>While Redis cannot be reached each replica's breakers work as in one process: an opening it
 * cannot announce is logged and kept locally; openings learnt before stay until they end.
 */
public final class RedisBreakers implements SharedBreakers {

    /** Openings kept at most (upstreams and tools of this gateway: far fewer); beyond, the oldest are forgotten. */
    static final int MAX = 10_000;

    private final StatefulRedisConnection<String, String> connection;
    private final Keys keys;
    private final InstantSource clock;
    private final Reachability reachability;
    private final Map<String, Opening> openings = new ConcurrentHashMap<>();

    public RedisBreakers(StatefulRedisConnection<String, String> connection,
            StatefulRedisPubSubConnection<String, String> subscription, Keys keys, InstantSource clock,
            Reachability reachability) {
        this.connection = connection;
        this.keys = keys;
        this.clock = clock;
        this.reachability = reachability;
        subscription.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
                heard(message);
            }
        });
        subscription.sync().subscribe(keys.breakerChannel());
        resync();
    }

    @Override
    public void opened(String name, Opening opening) {
        remember(name, opening);
        long ttl = Duration.between(clock.instant(), opening.until()).toMillis();
        if (ttl <= 0) {
            return;
        }
        String value = encode(opening);
        // Sent without waiting: the caller is the call that opened the breaker, and its answer must
        // not wait for Redis (nor, while Redis is away, for the command timeout). The two commands
        // go out in order on one connection; the outcome only tells the reachability.
        try {
            var redis = connection.async();
            redis.set(keys.breaker(name), value, SetArgs.Builder.px(ttl));
            redis.publish(keys.breakerChannel(), name + "\n" + value).whenComplete((receivers, e) -> {
                if (e == null) {
                    reachability.worked();
                } else {
                    reachability.failed("breakers are this replica's own until it is back",
                            e instanceof RuntimeException r ? r : new IllegalStateException(e));
                }
            });
        } catch (RuntimeException e) {
            reachability.failed("breakers are this replica's own until it is back", e);
        }
    }

    @Override
    public Optional<Opening> openUntil(String name, Instant now) {
        Opening o = openings.get(name);
        if (o == null) {
            return Optional.empty();
        }
        if (!o.until().isAfter(now)) {
            openings.remove(name, o);
            return Optional.empty();
        }
        return Optional.of(o);
    }

    /**
     * Reads every opening still kept in Redis: at start, and after the subscription reconnects (what
     * was published meanwhile was lost to this replica, the keys were not). Called off the client's
     * I/O threads.
     */
    public void resync() {
        try {
            var redis = connection.sync();
            ScanCursor cursor = ScanCursor.INITIAL;
            do {
                KeyScanCursor<String> page = redis.scan(cursor, ScanArgs.Builder.matches(keys.breakerPrefix() + "*")
                        .limit(500));
                List<String> found = page.getKeys();
                for (String key : found) {
                    String value = redis.get(key);
                    if (value != null) {
                        decode(value).ifPresent(o -> remember(key.substring(keys.breakerPrefix().length()), o));
                    }
                }
                cursor = page;
            } while (!cursor.isFinished());
            reachability.worked();
        } catch (RuntimeException e) {
            reachability.failed("breakers opened elsewhere are learnt again when it is back", e);
        }
    }

    private void heard(String message) {
        int nl = message.indexOf('\n');
        if (nl > 0) {
            decode(message.substring(nl + 1)).ifPresent(o -> remember(message.substring(0, nl), o));
        }
    }

    private void remember(String name, Opening opening) {
        if (openings.size() >= MAX && !openings.containsKey(name)) {
            Instant now = clock.instant();
            openings.values().removeIf(o -> !o.until().isAfter(now));
            if (openings.size() >= MAX) {
                openings.clear();
            }
        }
        // A later opening wins; an older message arriving late does not shorten a pause.
        openings.merge(name, opening, (was, now) -> now.until().isAfter(was.until()) ? now : was);
    }

    /** {@code <until, epoch ms>|<why>}: the why is the opening replica's sentence (counts, no secrets). */
    static String encode(Opening o) {
        return o.until().toEpochMilli() + "|" + o.why();
    }

    static Optional<Opening> decode(String value) {
        int bar = value.indexOf('|');
        if (bar <= 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Opening(Instant.ofEpochMilli(Long.parseLong(value.substring(0, bar))),
                    value.substring(bar + 1)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
