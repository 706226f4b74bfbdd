package dev.warden.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.gateway.config.Limits;
import dev.warden.gateway.shared.SharedRates;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What a rate-limited call costs Redis, counted by Redis itself (INFO commandstats): docs/operations/redis.md's figure. */
class RedisCommandsPerCallTest {

    private static final Limits.Rate TWO_A_MINUTE = Limits.Rate.parse("2/m");
    private Replicas replicas;

    @BeforeEach
    void redis() throws Exception {
        replicas = new Replicas();
    }

    @AfterEach
    void stop() throws Exception {
        replicas.close();
    }

    private long commandsFor(Runnable call) throws Exception {
        replicas.redis.command("CONFIG", "RESETSTAT");
        call.run();
        List<String> stats = replicas.redis.commandStats();
        System.out.println("redis commands: " + stats);
        return stats.stream().filter(s -> !s.startsWith("cmdstat_config"))
                .mapToLong(s -> Long.parseLong(s.replaceAll("^[^:]*:calls=(\\d+),.*", "$1"))).sum();
    }

    @Test
    void anAdmittedCallCostsTwoRoundTripsARefusedOneAndABreakerCheckNone() throws Exception {
        SharedRates rates = replicas.replica("prod").rates();
        var breakers = replicas.replica("prod").breakers();
        // Commands run by a script count too: EVAL's own GET and SET are in the figures.
        long first = commandsFor(() -> rates.take("client:sub:alice", TWO_A_MINUTE));
        long admitted = commandsFor(() -> rates.take("client:sub:alice", TWO_A_MINUTE));
        long refused = commandsFor(() -> rates.take("client:sub:alice", TWO_A_MINUTE));
        long breakerCheck = commandsFor(() -> breakers.openUntil("crm", replicas.clock.instant()));
        System.out.printf("commands: first call %d, admitted %d, refused %d, breaker check %d%n", first, admitted,
                refused, breakerCheck);
        assertThat(first).isEqualTo(4);     // GET (none yet); EVAL, which runs GET and SET … PX: the bucket made
        assertThat(admitted).isEqualTo(4);  // GET; EVAL (compare-and-swap), which runs GET and PSETEX
        assertThat(refused).isEqualTo(1);   // GET: no token, nothing written
        assertThat(breakerCheck).isZero();  // answered from memory
    }
}
