package dev.warden.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.gateway.config.Redis;
import dev.warden.store.redis.internal.Envelopes;
import dev.warden.testkit.LocalRedis;
import dev.warden.testkit.MutableClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Who can PUBLISH on the replicas' channels (any local user of a Redis without a password) cannot
 * reach a replica's handlers: only envelopes signed with the replicas' key, fresh and new, are.
 * Each forged message is followed by a signed one: the inbox keeps the order of one publisher's
 * messages, so once the signed one arrived the forged one was judged, and dropped.
 */
class SignedBusMessagesTest {

    private static final byte[] KEY = RedisReplicaBusTest.KEY;
    private static final byte[] OTHER = "somebody else's key, of 32 bytes".getBytes(StandardCharsets.UTF_8);
    private static final Duration WITHIN = Duration.ofSeconds(10);
    private final MutableClock clock = new MutableClock(Instant.now());
    private final List<RedisReplicaBus> buses = new ArrayList<>();
    private LocalRedis redis;
    private RedisReplicaBus b;
    private List<String> atB;

    @BeforeEach
    void start() throws Exception {
        redis = LocalRedis.start(Replicas.DIR);
        b = join(List.of(KEY));
        atB = new CopyOnWriteArrayList<>();
        b.on("parked.round", (from, body) -> atB.add(from + ":" + body));
    }

    @AfterEach
    void stop() throws Exception {
        buses.forEach(RedisReplicaBus::close);
        redis.close();
    }

    private RedisReplicaBus join(List<byte[]> keys) {
        RedisReplicaBus bus = RedisReplicaBus.connect(new Redis(redis.url(), "prod", Redis.WhenDown.OPEN, Optional.empty()),
                keys, Duration.ofMillis(600), clock);
        buses.add(bus);
        return bus;
    }

    private String channelOfB() {
        return "warden:prod:to:" + b.self();
    }

    /** A signed message from the replica "a", published by hand: it is delivered, after whatever came before. */
    private void publishSigned(String body) throws Exception {
        redis.command("PUBLISH", channelOfB(), new Envelopes(List.of(KEY), clock).seal("a", b.self(), "parked.round", body));
        Replicas.await(() -> atB.contains("a:" + body), WITHIN, "the signed message " + body);
    }

    @Test
    void aMessagePublishedByHandWithoutSignatureIsDropped() throws Exception {
        redis.command("PUBLISH", channelOfB(), "{\"f\":\"a\",\"t\":\"parked.round\",\"b\":\"forged\"}");
        publishSigned("signed");
        assertThat(atB).containsExactly("a:signed");
        assertThat(b.refused()).isEqualTo(1);
    }

    @Test
    void aMessageSignedWithAnotherKeyIsDropped() throws Exception {
        RedisReplicaBus stranger = join(List.of(OTHER));
        assertThat(stranger.send(b.self(), "parked.round", "forged")).isTrue();
        publishSigned("signed");
        assertThat(atB).containsExactly("a:signed");
        assertThat(b.refused()).isEqualTo(1);
    }

    @Test
    void aMessageSignedWithAnOlderKeyOfTheRingIsDelivered() {
        RedisReplicaBus rotated = join(List.of(OTHER, KEY)); // signs with the new key, still accepts the old
        RedisReplicaBus notYet = join(List.of(KEY, OTHER)); // a replica the new key reached as older only
        List<String> atRotated = new CopyOnWriteArrayList<>();
        rotated.on("t", (from, body) -> atRotated.add(body));
        notYet.send(rotated.self(), "t", "old key");
        Replicas.await(() -> atRotated.contains("old key"), WITHIN, "the message signed with the older key");
        List<String> atNotYet = new CopyOnWriteArrayList<>();
        notYet.on("t", (from, body) -> atNotYet.add(body));
        rotated.send(notYet.self(), "t", "new key");
        Replicas.await(() -> atNotYet.contains("new key"), WITHIN, "the message signed with the newer key");
    }

    @Test
    void aSignedMessagePlayedAgainIsDropped() throws Exception {
        String overheard = new Envelopes(List.of(KEY), clock).seal("a", b.self(), "parked.round", "once");
        redis.command("PUBLISH", channelOfB(), overheard);
        redis.command("PUBLISH", channelOfB(), overheard);
        publishSigned("after");
        assertThat(atB).containsExactly("a:once", "a:after");
        assertThat(b.refused()).isEqualTo(1);
    }

    @Test
    void aSignedMessageOlderThanThirtySecondsIsDropped() throws Exception {
        String sealed = new Envelopes(List.of(KEY), clock).seal("a", b.self(), "parked.round", "stale");
        clock.advance(Envelopes.MAX_AGE.plusSeconds(1));
        redis.command("PUBLISH", channelOfB(), sealed);
        publishSigned("fresh");
        assertThat(atB).containsExactly("a:fresh");
        assertThat(b.refused()).isEqualTo(1);
    }

    @Test
    void aSignedMessageForAnotherReplicaIsDroppedOnThisOnesChannel() throws Exception {
        redis.command("PUBLISH", channelOfB(), new Envelopes(List.of(KEY), clock).seal("a", "c", "parked.round", "for c"));
        publishSigned("for b");
        assertThat(atB).containsExactly("a:for b");
        assertThat(b.refused()).isEqualTo(1);
    }
}
