package dev.warden.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.gateway.shared.SharedBreakers;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SharedBreakersOnRedisTest {

    private static final Duration WITHIN = Duration.ofSeconds(10);
    private Replicas replicas;

    @BeforeEach
    void redis() throws Exception {
        replicas = new Replicas();
    }

    @AfterEach
    void stop() throws Exception {
        replicas.close();
    }

    private SharedBreakers.Opening forThirtySeconds() {
        return new SharedBreakers.Opening(replicas.clock.instant().plus(Duration.ofSeconds(30)),
                "it did not answer 6 of its last 10 calls");
    }

    @Test
    void aBreakerOpenedByOneReplicaIsSeenOpenByTheOther() {
        SharedBreakers a = replicas.replica("prod").breakers();
        SharedBreakers b = replicas.replica("prod").breakers();
        a.opened("crm", forThirtySeconds());
        Replicas.await(() -> b.openUntil("crm", replicas.clock.instant()).isPresent(), WITHIN, "B hears A's opening");
        assertThat(b.openUntil("crm", replicas.clock.instant())).hasValueSatisfying(o -> {
            assertThat(o.until()).isEqualTo(Instant.parse("2026-07-28T12:00:30Z"));
            assertThat(o.why()).isEqualTo("it did not answer 6 of its last 10 calls");
        });
        assertThat(b.openUntil("crm/lookup", replicas.clock.instant())).isEmpty();
    }

    @Test
    void aReplicaThatStartsLaterReadsTheOpeningsStillInForce() {
        replicas.replica("prod").breakers().opened("crm/lookup", forThirtySeconds());
        awaitKey("warden:prod:breaker:crm/lookup");
        SharedBreakers late = replicas.replica("prod").breakers();
        assertThat(late.openUntil("crm/lookup", replicas.clock.instant())).isPresent();
    }

    @Test
    void theOpeningEndsWhenItsPauseDoes() {
        SharedBreakers a = replicas.replica("prod").breakers();
        SharedBreakers b = replicas.replica("prod").breakers();
        a.opened("crm", forThirtySeconds());
        Replicas.await(() -> b.openUntil("crm", replicas.clock.instant()).isPresent(), WITHIN, "B hears A's opening");
        replicas.clock.advance(Duration.ofSeconds(30));
        assertThat(b.openUntil("crm", replicas.clock.instant())).isEmpty();
    }

    @Test
    void theKeyInRedisLivesAsLongAsThePause() throws Exception {
        replicas.replica("prod").breakers().opened("crm", forThirtySeconds());
        awaitKey("warden:prod:breaker:crm");
        long ttl = Long.parseLong(replicas.redis.command("PTTL", "warden:prod:breaker:crm"));
        assertThat(ttl).isPositive().isLessThanOrEqualTo(30_000);
    }

    @Test
    void otherClustersDoNotHearIt() {
        SharedBreakers prod = replicas.replica("prod").breakers();
        SharedBreakers prodToo = replicas.replica("prod").breakers();
        SharedBreakers staging = replicas.replica("staging").breakers();
        prod.opened("crm", forThirtySeconds());
        Replicas.await(() -> prodToo.openUntil("crm", replicas.clock.instant()).isPresent(), WITHIN, "prod hears it");
        assertThat(staging.openUntil("crm", replicas.clock.instant())).isEmpty();
    }

    @Test
    void anOpeningWhileRedisIsAwayIsThisReplicasOwn() throws Exception {
        SharedBreakers a = replicas.replica("prod").breakers();
        replicas.redis.stop();
        try {
            a.opened("crm", forThirtySeconds());
            assertThat(a.openUntil("crm", replicas.clock.instant())).isPresent();
        } finally {
            replicas.redis.start();
        }
    }

    private void awaitKey(String key) {
        Replicas.await(() -> {
            try {
                return "1".equals(replicas.redis.command("EXISTS", key));
            } catch (java.io.IOException e) {
                return false;
            }
        }, WITHIN, key + " written");
    }
}
