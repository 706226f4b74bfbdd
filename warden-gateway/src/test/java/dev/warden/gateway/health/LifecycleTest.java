package dev.warden.gateway.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LifecycleTest {

    final MutableClock clock = new MutableClock(Instant.parse("2026-11-24T00:00:00Z"));
    final Lifecycle lifecycle = new Lifecycle(clock);

    @Test
    void aNewGatewayServesAndAdmitsCalls() {
        assertThat(lifecycle.phase()).isEqualTo(Lifecycle.Phase.SERVING);
        assertThat(lifecycle.enter()).isTrue();
        assertThat(lifecycle.inFlight()).isEqualTo(1);
    }

    @Test
    void drainingRefusesNewCallsAtOnce() {
        lifecycle.enter();
        lifecycle.drain(Duration.ofSeconds(30));
        assertThat(lifecycle.phase()).isEqualTo(Lifecycle.Phase.DRAINING);
        assertThat(lifecycle.enter()).isFalse();
        assertThat(lifecycle.inFlight()).isEqualTo(1);
    }

    @Test
    void withNothingInFlightDrainingIsOverAtOnce() {
        lifecycle.drain(Duration.ofSeconds(30));
        assertThat(lifecycle.phase()).isEqualTo(Lifecycle.Phase.DRAINED);
    }

    @Test
    void theLastCallInFlightEndingEndsTheDrain() {
        lifecycle.enter();
        lifecycle.enter();
        lifecycle.drain(Duration.ofSeconds(30));
        lifecycle.exit();
        assertThat(lifecycle.phase()).isEqualTo(Lifecycle.Phase.DRAINING);
        lifecycle.exit();
        assertThat(lifecycle.phase()).isEqualTo(Lifecycle.Phase.DRAINED);
    }

    @Test
    void theBoundEndsTheDrainWithCallsStillInFlight() {
        lifecycle.enter();
        lifecycle.drain(Duration.ofSeconds(30));
        clock.advance(Duration.ofSeconds(29));
        assertThat(lifecycle.phase()).isEqualTo(Lifecycle.Phase.DRAINING);
        clock.advance(Duration.ofSeconds(1));
        assertThat(lifecycle.phase()).isEqualTo(Lifecycle.Phase.DRAINED);
        assertThat(lifecycle.inFlight()).isEqualTo(1);
    }

    @Test
    void aSecondDrainKeepsTheFirstBound() {
        lifecycle.enter();
        lifecycle.drain(Duration.ofSeconds(10));
        lifecycle.drain(Duration.ofMinutes(10));
        clock.advance(Duration.ofSeconds(10));
        assertThat(lifecycle.phase()).isEqualTo(Lifecycle.Phase.DRAINED);
    }

    @Test
    void awaitingTheDrainReturnsWhenTheLastCallEnds() throws Exception {
        lifecycle.enter();
        lifecycle.drain(Duration.ofSeconds(30));
        CompletableFuture<Boolean> finished = CompletableFuture.supplyAsync(() -> {
            try {
                return lifecycle.awaitDrained(Duration.ofMillis(10));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        lifecycle.exit();
        assertThat(finished.get(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void awaitingTheDrainSaysWhenCallsWereLeftAtTheBound() throws Exception {
        lifecycle.enter();
        lifecycle.drain(Duration.ofSeconds(30));
        clock.advance(Duration.ofSeconds(31));
        assertThat(lifecycle.awaitDrained(Duration.ofMillis(10))).isFalse();
    }

    @Test
    void anExitWithoutAnEnterIsAMistake() {
        assertThatThrownBy(lifecycle::exit).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aNegativeBoundIsRefused() {
        assertThatThrownBy(() -> lifecycle.drain(Duration.ofSeconds(-1)))
                .hasMessageContaining("PT-1S");
    }
}
