package dev.warden.gateway.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ReadinessTest {

    final Lifecycle lifecycle = new Lifecycle(new MutableClock(Instant.parse("2026-11-24T00:00:00Z")));

    static HealthCheck check(String name, HealthCheck.Probe probe) {
        return HealthCheck.of(name, Duration.ofMillis(200), probe);
    }

    @Test
    void withNoChecksAServingGatewayIsReady() {
        assertThat(new Readiness(lifecycle, List.of()).failing()).isEmpty();
    }

    @Test
    void aDrainingGatewayIsNotReady() {
        lifecycle.drain(Duration.ofSeconds(30));
        assertThat(new Readiness(lifecycle, List.of(check("redis", () -> true))).failing())
                .containsExactly("draining");
    }

    @Test
    void eachFailingCheckIsNamedAndOnlyThose() {
        Readiness readiness = new Readiness(lifecycle, List.of(check("redis", () -> false),
                check("postgres", () -> true), check("queue", () -> {
                    throw new IllegalStateException("connection refused to 10.0.0.7:6379 as admin:hunter2");
                })));
        assertThat(readiness.failing()).containsExactly("redis", "queue");
    }

    @Test
    void aProbeThatHangsFailsAtItsBound() {
        CountDownLatch never = new CountDownLatch(1);
        Readiness readiness = new Readiness(lifecycle, List.of(check("redis", () -> {
            never.await();
            return true;
        })));
        assertThat(readiness.failing()).containsExactly("redis");
    }

    @Test
    void checksMustHaveDistinctNames() {
        assertThatThrownBy(() -> new Readiness(lifecycle, List.of(check("redis", () -> true),
                check("redis", () -> true)))).hasMessageContaining("distinct");
    }

    @Test
    void aCheckNameIsAShortPlainWord() {
        assertThatThrownBy(() -> check("redis at 10.0.0.7", () -> true)).hasMessageContaining("redis at 10.0.0.7");
        assertThatThrownBy(() -> check("draining", () -> true)).hasMessageContaining("own check");
    }

    @Test
    void aCheckMayNotWaitLongerThanALoadBalancerDoes() {
        assertThatThrownBy(() -> HealthCheck.of("redis", Duration.ofSeconds(11), () -> true))
                .hasMessageContaining("PT11S");
    }
}
