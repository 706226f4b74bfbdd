package dev.warden.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.gateway.config.Limits;
import dev.warden.gateway.shared.SharedRates;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SharedRatesOnRedisTest {

    private static final Limits.Rate TEN_A_MINUTE = Limits.Rate.parse("10/m");
    private Replicas replicas;

    @BeforeEach
    void redis() throws Exception {
        replicas = new Replicas();
    }

    @AfterEach
    void stop() throws Exception {
        replicas.close();
    }

    @Test
    void twoReplicasAdmitAtMostTheLimitInTotalForOneSubject() {
        SharedRates a = replicas.replica("prod").rates();
        SharedRates b = replicas.replica("prod").rates();
        int admitted = 0;
        for (int i = 0; i < 30; i++) {
            if ((i % 2 == 0 ? a : b).take("client:sub:alice", TEN_A_MINUTE).isEmpty()) {
                admitted++;
            }
        }
        // The clock does not move: no refill, so the tolerance is zero.
        assertThat(admitted).isEqualTo(10);
    }

    @Test
    void concurrentCallsOnTwoReplicasStillAdmitExactlyTheLimit() throws Exception {
        List<SharedRates> both = List.of(replicas.replica("prod").rates(), replicas.replica("prod").rates());
        AtomicInteger admitted = new AtomicInteger();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> calls = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                SharedRates replica = both.get(t % 2);
                calls.add(threads.submit(() -> {
                    for (int i = 0; i < 5; i++) {
                        if (replica.take("client:sub:alice", TEN_A_MINUTE).isEmpty()) {
                            admitted.incrementAndGet();
                        }
                    }
                }));
            }
            for (Future<?> f : calls) {
                f.get();
            }
        }
        assertThat(admitted).hasValue(10);
    }

    @Test
    void aRefusalSaysWhenTheNextCallWouldBeAdmitted() {
        SharedRates a = replicas.replica("prod").rates();
        for (int i = 0; i < 10; i++) {
            a.take("client:sub:alice", TEN_A_MINUTE);
        }
        assertThat(a.take("client:sub:alice", TEN_A_MINUTE)).hasValueSatisfying(wait ->
                assertThat(wait).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(6)));
    }

    @Test
    void subjectsAndToolsHaveBucketsOfTheirOwn() {
        SharedRates a = replicas.replica("prod").rates();
        SharedRates b = replicas.replica("prod").rates();
        for (int i = 0; i < 10; i++) {
            assertThat(a.take("client:sub:alice", TEN_A_MINUTE)).isEmpty();
        }
        assertThat(b.take("client:sub:alice", TEN_A_MINUTE)).isPresent();
        assertThat(b.take("client:sub:bob", TEN_A_MINUTE)).isEmpty();
        assertThat(b.take("tool:crm:lookup", TEN_A_MINUTE)).isEmpty();
    }

    @Test
    void clustersSharingOneRedisDoNotShareBuckets() {
        SharedRates prod = replicas.replica("prod").rates();
        SharedRates staging = replicas.replica("staging").rates();
        for (int i = 0; i < 10; i++) {
            prod.take("client:sub:alice", TEN_A_MINUTE);
        }
        assertThat(staging.take("client:sub:alice", TEN_A_MINUTE)).isEmpty();
    }

    @Test
    void tokensComeBackByTheGatewaysClock() {
        SharedRates a = replicas.replica("prod").rates();
        SharedRates b = replicas.replica("prod").rates();
        for (int i = 0; i < 10; i++) {
            a.take("client:sub:alice", TEN_A_MINUTE);
        }
        replicas.clock.advance(Duration.ofSeconds(6)); // one token's worth of a minute
        assertThat(b.take("client:sub:alice", TEN_A_MINUTE)).isEmpty();
        assertThat(a.take("client:sub:alice", TEN_A_MINUTE)).isPresent();
    }

    @Test
    void anIdleBucketExpiresInRedis() throws Exception {
        replicas.replica("prod").rates().take("client:sub:alice", TEN_A_MINUTE);
        String key = "warden:prod:rate:10/60000ms:client:sub:alice";
        long ttl = Long.parseLong(replicas.redis.command("PTTL", key));
        // Refilled within the period after one call (6 s here), kept 10 s more: never kept forever (-1).
        assertThat(ttl).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(6 + 10).toMillis());
    }
}
