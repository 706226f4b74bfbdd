package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.cluster.ReplicaBus;
import dev.warden.gateway.Gateway;
import dev.warden.gateway.config.Redis;
import dev.warden.http.server.SessionKeys;
import dev.warden.testkit.LocalRedis;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a replica shares on Redis: the replicas' bus only when the portable sessions' keys are
 * there to sign it (else parked calls and sessions stay per replica, and the start line says so).
 */
class SharedStoresTest {

    private static final String KEYS = SessionKeys.newKeyLine("k1");
    private LocalRedis redis;

    @BeforeEach
    void start() throws Exception {
        redis = LocalRedis.start(Path.of("target", "redis"));
    }

    @AfterEach
    void stop() throws Exception {
        redis.close();
    }

    private Optional<Redis> settings() {
        return Optional.of(new Redis(redis.url(), "prod", Redis.WhenDown.OPEN, Optional.of("gw-1")));
    }

    @Test
    void withRedisButNoSessionKeysThereIsNoBusAndTheStartLineSaysWhy() {
        try (SharedStores shared = SharedStores.open(settings(), Optional.empty(), Gateway.builder())) {
            assertThat(shared.replicas()).isEmpty();
            assertThat(shared.startNote()).isEqualTo(" (" + SharedStores.NO_BUS + ")");
        }
    }

    @Test
    void withNeitherNothingIsSaid() {
        try (SharedStores shared = SharedStores.open(Optional.empty(), Optional.of(SessionKeys.parse(KEYS)), Gateway.builder())) {
            assertThat(shared.replicas()).isEmpty();
            assertThat(shared.startNote()).isEmpty();
        }
    }

    @Test
    void replicasGivenTheSameSessionKeysTalkOnTheBusAndNameThisRunOnTheStartLine() {
        try (SharedStores a = SharedStores.open(settings(), Optional.of(SessionKeys.parse(KEYS)), Gateway.builder());
             SharedStores b = SharedStores.open(settings(), Optional.of(SessionKeys.parse(KEYS)), Gateway.builder())) {
            ReplicaBus busA = a.replicas().orElseThrow();
            ReplicaBus busB = b.replicas().orElseThrow();
            assertThat(a.startNote()).isEqualTo(" replica " + busA.self()).matches(" replica gw-1_[A-Za-z0-9]{4}");
            List<String> atB = new CopyOnWriteArrayList<>();
            busB.on("t", (from, body) -> atB.add(body));
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!atB.contains("hello")) {
                assertThat(System.nanoTime()).as("b gets a's signed message").isLessThan(deadline);
                busA.send(busB.self(), "t", "hello");
                LockSupport.parkNanos(50_000_000); // the next try, not a wait for time
            }
        }
    }
}
