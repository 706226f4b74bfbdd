package dev.warden.store.postgres;

import dev.warden.gateway.auditlog.AuditRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A load figure, not a check: audit records a second when every caller waits for its commit
 * (fail-closed), batched against one insert per record. Runs only when asked:
 * {@code -Dwarden.pg.throughput=true -Dtest=BatchedInsertThroughputTest}.
 */
class BatchedInsertThroughputTest {

    @Test
    void recordsPerSecondWithAndWithoutBatching() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("warden.pg.throughput"), "a measurement: -Dwarden.pg.throughput=true");
        for (int batch : new int[] {1, 128}) {
            try (TestDatabase db = TestDatabase.require();
                 PostgresStore store = PostgresStore.open(db.settings().withWaitForCommit(true)
                         .withBatching(batch, Duration.ofMillis(2)), Clock.systemUTC())) {
                run(store, 64, 50); // warm-up
                long start = System.nanoTime();
                int records = run(store, 64, 300);
                double seconds = (System.nanoTime() - start) / 1e9;
                System.out.printf("batchSize %d: %d records from 64 waiting writers in %.2f s = %.0f records/s%n",
                        batch, records, seconds, records / seconds);
            }
        }
    }

    private static int run(PostgresStore store, int writers, int each) throws Exception {
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        store.audit().record(new AuditRecord(Instant.now(), "bench#1", Optional.of("crm"), "tools/call",
                                Optional.of("query"), Duration.ofMillis(3), AuditRecord.Outcome.OK, Optional.empty(),
                                Optional.empty(), Optional.of("bench"), Optional.empty()));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
        return writers * each;
    }
}
