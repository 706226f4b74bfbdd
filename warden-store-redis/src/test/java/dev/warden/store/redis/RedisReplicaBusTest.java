package dev.warden.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.cluster.ReplicaCalls;
import dev.warden.gateway.config.Redis;
import dev.warden.testkit.LocalRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The replicas' bus on a real Redis: messages to one and to all, liveness by heartbeat, shared facts, Redis away. */
class RedisReplicaBusTest {

    static final byte[] KEY = "the replicas' bus key, 32 bytes!".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    private static final Duration LEASE = Duration.ofMillis(600);
    private static final Duration WITHIN = Duration.ofSeconds(10);
    private LocalRedis redis;
    private final List<RedisReplicaBus> buses = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        redis = LocalRedis.start(Replicas.DIR);
    }

    @AfterEach
    void stop() throws Exception {
        buses.forEach(RedisReplicaBus::close);
        redis.close();
    }

    private RedisReplicaBus join(String id) {
        RedisReplicaBus bus = RedisReplicaBus.connect(new Redis(redis.url(), "prod", Redis.WhenDown.OPEN,
                Optional.ofNullable(id)), List.of(KEY), LEASE);
        buses.add(bus);
        return bus;
    }

    private static List<String> inbox(RedisReplicaBus bus, String topic) {
        List<String> got = new CopyOnWriteArrayList<>();
        bus.on(topic, (from, body) -> got.add(from + ":" + body));
        return got;
    }

    @Test
    void aMessageToOneReplicaReachesItAndNoOther() {
        RedisReplicaBus a = join("a");
        RedisReplicaBus b = join("b");
        RedisReplicaBus c = join("c");
        List<String> atB = inbox(b, "t");
        List<String> atC = inbox(c, "t");
        assertThat(a.send(b.self(), "t", "hello")).isTrue();
        Replicas.await(() -> atB.contains(a.self() + ":hello"), WITHIN, "b gets a's message");
        assertThat(a.broadcast("t", "flush")).isTrue(); // after the first, in order
        Replicas.await(() -> atC.contains(a.self() + ":flush"), WITHIN, "c gets the broadcast");
        assertThat(atC).containsExactly(a.self() + ":flush");
    }

    @Test
    void aBroadcastReachesEveryOtherReplicaButNotItsSender() {
        RedisReplicaBus a = join("a");
        RedisReplicaBus b = join("b");
        List<String> atA = inbox(a, "t");
        List<String> atB = inbox(b, "t");
        a.broadcast("t", "one");
        b.send(a.self(), "t", "marker"); // a's inbox is in order per sender: the marker comes after any broadcast echo
        Replicas.await(() -> atB.contains(a.self() + ":one") && atA.contains(b.self() + ":marker"), WITHIN,
                "broadcast and marker");
        assertThat(atA).containsExactly(b.self() + ":marker");
    }

    @Test
    void messagesAreHandledOneAtATimeOffTheEventLoop() {
        RedisReplicaBus a = join("a");
        RedisReplicaBus b = join("b");
        List<String> threads = new CopyOnWriteArrayList<>();
        List<String> order = new CopyOnWriteArrayList<>();
        b.on("t", (from, body) -> {
            threads.add(Thread.currentThread().isVirtual() + "");
            order.add(body);
        });
        for (int i = 0; i < 20; i++) {
            a.send(b.self(), "t", Integer.toString(i));
        }
        Replicas.await(() -> order.size() == 20, WITHIN, "20 messages");
        assertThat(order).containsExactlyElementsOf(java.util.stream.IntStream.range(0, 20).mapToObj(Integer::toString).toList());
        assertThat(threads).containsOnly("true");
    }

    @Test
    void aGeneratedIdIsShortAndPlain() {
        assertThat(join(null).self()).matches("[A-Za-z0-9]{10}");
    }

    @Test
    void aConfiguredIdIsTheNameAndAPartNewAtEachRun() {
        RedisReplicaBus before = join("gw-1");
        before.close();
        RedisReplicaBus after = join("gw-1");
        assertThat(before.self()).matches("gw-1_[A-Za-z0-9]{4}");
        assertThat(after.self()).matches("gw-1_[A-Za-z0-9]{4}")
                .as("a late answer to a question of the run before names the old run, not this one")
                .isNotEqualTo(before.self());
    }

    @Test
    void aReplicaKilledWithoutLeavingIsSeenDownAfterItsLease() {
        RedisReplicaBus a = join("a");
        RedisReplicaBus b = join("b");
        Replicas.await(() -> a.alive(b.self()) && b.alive(a.self()), WITHIN, "each sees the other");
        b.kill();
        assertThat(a.alive(b.self())).isTrue(); // its heartbeat is still current
        Replicas.await(() -> !a.alive(b.self()), WITHIN, "b seen down once its lease lapsed");
        assertThat(a.alive(a.self())).isTrue();
        assertThat(a.alive("nobody")).isFalse();
    }

    @Test
    void membershipIsOneSortedSetThatForgetsTheDeadWithoutScanningTheKeyspace() throws Exception {
        RedisReplicaBus a = join("a");
        RedisReplicaBus b = join("b");
        Replicas.await(() -> a.alive(b.self()), WITHIN, "a sees b");
        assertThat(redis.command("ZSCORE", "warden:prod:replicas", b.self())).matches("\\d+");
        redis.command("CONFIG", "RESETSTAT");
        b.kill();
        Replicas.await(() -> !a.alive(b.self()), WITHIN, "b seen down once its lease lapsed");
        assertThat(redis.command("ZSCORE", "warden:prod:replicas", b.self())).as("pruned").isEmpty();
        assertThat(redis.commandStats()).noneMatch(line -> line.startsWith("cmdstat_scan:"));
    }

    @Test
    void factsAreSharedAndExpire() {
        RedisReplicaBus a = join("a");
        RedisReplicaBus b = join("b");
        assertThat(a.put("session.s1", "owner", "a", Duration.ofMinutes(1))).isTrue();
        assertThat(a.put("session.s1", "stream", "a.1", Duration.ofMinutes(1))).isTrue();
        assertThat(b.read("session.s1")).hasValue(Map.of("owner", "a", "stream", "a.1"));
        assertThat(b.remove("session.s1", "stream")).isTrue();
        assertThat(a.read("session.s1")).hasValue(Map.of("owner", "a"));
        assertThat(a.read("none")).hasValue(Map.of());
        a.put("short", "f", "v", Duration.ofMillis(100));
        Replicas.await(() -> b.read("short").equals(Optional.of(Map.of())), WITHIN, "the fact expired");
    }

    @Test
    void whileRedisIsAwayNothingGoesAndNothingThrowsThenMessagesFlowAgain() throws Exception {
        RedisReplicaBus a = join("a");
        RedisReplicaBus b = join("b");
        List<String> atB = inbox(b, "t");
        Replicas.await(() -> a.alive(b.self()), WITHIN, "a sees b");
        redis.stop();
        assertThat(a.send(b.self(), "t", "lost")).isFalse();
        assertThat(a.broadcast("t", "lost")).isFalse();
        assertThat(a.put("k", "f", "v", Duration.ofMinutes(1))).isFalse();
        assertThat(a.remove("k", "f")).isFalse();
        assertThat(a.read("k")).isEmpty();
        // Beats fail for longer than the lease; b may well still run what it ran: it is not said down.
        Replicas.await(() -> a.missedBeats() >= 4, WITHIN, "more than a lease of failed heartbeats");
        assertThat(a.alive(b.self())).as("the last view stands while Redis is away").isTrue();
        redis.start();
        // Lettuce reconnects both connections, and subscribes b to its channels again.
        Replicas.await(() -> {
            a.send(b.self(), "t", "back");
            return atB.contains(a.self() + ":back");
        }, WITHIN, "a message after Redis came back");
        Replicas.await(() -> a.alive(b.self()), WITHIN, "heartbeats resumed");
        assertThat(atB).doesNotContain(a.self() + ":lost");
    }

    @Test
    void anAskBetweenTwoReplicasIsAnswered() throws Exception {
        RedisReplicaBus a = join("a");
        RedisReplicaBus b = join("b");
        ReplicaCalls.of(b).serve("echo", body -> "echo:" + body);
        ReplicaCalls asker = ReplicaCalls.of(a);
        Replicas.await(() -> a.alive(b.self()), WITHIN, "a sees b");
        assertThat(asker.call(b.self(), "echo", "hi", Duration.ofSeconds(5)).get()).isEqualTo("echo:hi");
    }
}
