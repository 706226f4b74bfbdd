package dev.warden.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.gateway.config.Limits;
import dev.warden.gateway.config.Redis;
import dev.warden.gateway.shared.SharedBreakers;
import dev.warden.gateway.shared.SharedRates;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What each shared concern does while Redis cannot be reached, and once it is back. */
class RedisAwayTest {

    private static final Limits.Rate FIVE_A_MINUTE = Limits.Rate.parse("5/m");
    private Replicas replicas;

    @BeforeEach
    void redis() throws Exception {
        replicas = new Replicas();
    }

    @AfterEach
    void stop() throws Exception {
        replicas.close();
    }

    private static int admitted(SharedRates rates, String scope, int tries) {
        int n = 0;
        for (int i = 0; i < tries; i++) {
            if (rates.take(scope, FIVE_A_MINUTE).isEmpty()) {
                n++;
            }
        }
        return n;
    }

    @Test
    void byDefaultEachReplicaCountsAloneWhileRedisIsAway() throws Exception {
        SharedRates a = replicas.replica("prod").rates();
        SharedRates b = replicas.replica("prod").rates();
        replicas.redis.stop();
        // Open: calls keep flowing, still bounded, N per replica.
        assertThat(admitted(a, "client:sub:alice", 20)).isEqualTo(5);
        assertThat(admitted(b, "client:sub:alice", 20)).isEqualTo(5);
    }

    @Test
    void aReplicaIsReachableWhileRedisAnswersAndNotOnceItStops() throws Exception {
        // What the gateway's /readyz asks (the "redis" health check).
        RedisStore store = replicas.replica("prod");
        assertThat(store.reachable()).isTrue();
        replicas.redis.stop();
        assertThat(store.reachable()).isFalse();
    }

    @Test
    void closedRefusesWhileRedisIsAway() throws Exception {
        SharedRates a = replicas.replica("prod", Redis.WhenDown.CLOSED).rates();
        replicas.redis.stop();
        assertThat(a.take("client:sub:alice", FIVE_A_MINUTE)).hasValue(Duration.ofSeconds(1));
    }

    @Test
    void theSharedCountResumesWhenRedisIsBack() throws Exception {
        RedisStore store = replicas.replica("prod");
        replicas.redis.stop();
        store.rates().take("client:sub:alice", FIVE_A_MINUTE);
        replicas.redis.start();
        replicas.clock.advance(Duration.ofSeconds(2)); // past the pause after a failure
        // Lettuce reconnects on its own; until it has, calls are counted locally.
        Replicas.await(() -> {
            replicas.clock.advance(Duration.ofSeconds(2));
            store.rates().take("client:sub:carol", FIVE_A_MINUTE);
            try {
                return !replicas.redis.command("KEYS", "warden:prod:rate:*carol").isEmpty();
            } catch (java.io.IOException e) {
                return false;
            }
        }, Duration.ofSeconds(30), "the rate is counted in Redis again");
    }

    @Test
    void breakersStayLocalWhileRedisIsAwayAndAreHeardAgainOnceItIsBack() throws Exception {
        SharedBreakers a = replicas.replica("prod").breakers();
        SharedBreakers b = replicas.replica("prod").breakers();
        replicas.redis.stop();
        SharedBreakers.Opening opening = new SharedBreakers.Opening(
                replicas.clock.instant().plus(Duration.ofSeconds(30)), "it failed 5 of its last 5 calls");
        a.opened("crm", opening); // cannot be announced: no exception, kept by A
        assertThat(a.openUntil("crm", replicas.clock.instant())).hasValue(opening);
        assertThat(b.openUntil("crm", replicas.clock.instant())).isEmpty();
        replicas.redis.start();
        // Once both have reconnected, an opening reaches B (pub/sub resubscribed, or the key read on reconnect).
        Replicas.await(() -> {
            a.opened("crm/lookup", opening);
            return b.openUntil("crm/lookup", replicas.clock.instant()).isPresent();
        }, Duration.ofSeconds(30), "B hears A again");
    }
}
