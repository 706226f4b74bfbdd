package dev.warden.gateway.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CachedProbeTest {

    private static final class MovableClock extends Clock {
        Instant now = Instant.parse("2026-11-24T12:00:00Z");

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void aFloodOfReadinessChecksAsksTheDependencyOncePerTtl() {
        MovableClock clock = new MovableClock();
        AtomicInteger asked = new AtomicInteger();
        CachedProbe probe = CachedProbe.of(() -> asked.incrementAndGet() > 0, Duration.ofMillis(500), clock);

        for (int i = 0; i < 1000; i++) {
            assertThat(probe.healthy()).isTrue();
        }
        clock.now = clock.now.plusMillis(500);
        probe.healthy();

        assertThat(asked).hasValue(2);
    }

    @Test
    void aDependencyThatWentAwayIsSeenOnceTheTtlHasPassed() {
        MovableClock clock = new MovableClock();
        AtomicBoolean up = new AtomicBoolean(true);
        CachedProbe probe = CachedProbe.of(() -> {
            if (!up.get()) {
                throw new IllegalStateException("connection refused");
            }
            return true;
        }, Duration.ofSeconds(1), clock);

        assertThat(probe.healthy()).isTrue();
        up.set(false);
        assertThat(probe.healthy()).isTrue();
        clock.now = clock.now.plusSeconds(1);
        assertThat(probe.healthy()).isFalse();
    }
}
