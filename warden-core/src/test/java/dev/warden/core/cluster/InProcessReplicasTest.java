package dev.warden.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The in-process hub: what one replica sends or records, the others get, as over a store. */
class InProcessReplicasTest {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-24T00:00:00Z"));
    private final InProcessReplicas hub = InProcessReplicas.hub(now::get);
    private final ReplicaBus a = hub.join("a");
    private final ReplicaBus b = hub.join("b");
    private final ReplicaBus c = hub.join("c");

    @Test
    void aMessageReachesOnlyTheReplicaItIsFor() throws InterruptedException {
        List<String> atB = new CopyOnWriteArrayList<>();
        List<String> atC = new CopyOnWriteArrayList<>();
        b.on("t", (from, body) -> atB.add(from + ":" + body));
        c.on("t", (from, body) -> atC.add(from + ":" + body));

        a.send("b", "t", "one");
        a.broadcast("t", "all");

        await(() -> atB.size() == 2 && atC.size() == 1);
        assertThat(atB).containsExactly("a:one", "a:all");
        assertThat(atC).containsExactly("a:all");
    }

    @Test
    void factsAreSharedAndExpire() {
        a.put("s1", "level", "debug", Duration.ofMinutes(1));
        b.put("s1", "get", "b", Duration.ofMinutes(1));

        assertThat(c.read("s1")).contains(Map.of("level", "debug", "get", "b"));
        now.set(now.get().plusSeconds(61));
        assertThat(c.read("s1")).contains(Map.of());
    }

    @Test
    void aStoppedReplicaIsDownAndAnUnreachableStoreAnswersNothing() {
        hub.stop("b");
        assertThat(a.alive("b")).isFalse();
        assertThat(a.alive("c")).isTrue();

        hub.unreachable(true);
        assertThat(a.send("c", "t", "x")).isFalse();
        assertThat(a.put("k", "f", "v", Duration.ofMinutes(1))).isFalse();
        assertThat(a.read("k")).isEmpty();
    }

    @Test
    void noneIsAlone() {
        assertThat(ReplicaBus.none().alone()).isTrue();
        assertThat(ReplicaBus.none().read("k")).isEmpty();
        assertThat(a.alone()).isFalse();
    }

    private static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 10 s");
            }
            Thread.sleep(5);
        }
    }

}
