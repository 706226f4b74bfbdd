package dev.warden.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.error.UnrecordedRefs;
import dev.warden.core.identity.Caller;
import dev.warden.core.incident.Incident;
import dev.warden.gateway.auditlog.AuditQuery;
import dev.warden.gateway.auditlog.AuditRecord;
import dev.warden.testkit.MutableClock;
import dev.warden.testkit.TcpRelay;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Against the real PostgreSQL of scripts/test-postgres, each test in a schema of its own. */
class PostgresStoreTest {

    private TestDatabase db;

    @BeforeEach
    void database() {
        db = TestDatabase.require();
    }

    @AfterEach
    void dropSchema() throws Exception {
        if (db != null) {
            db.close();
        }
    }

    private static Incident incident(Instant at, String original) {
        return Incident.ofText(Ref.random(), at, ErrorCode.UPSTREAM_ERROR, "tools/call", Optional.of("query"),
                Optional.of("crm"), original, List.of()).withReason("upstream answered with an error")
                .withCaller("alice", Optional.of("client-7"));
    }

    private static AuditRecord audit(Instant at, String tool, String subject) {
        return new AuditRecord(at, "claude-ai#1", Optional.of("crm"), "tools/call", Optional.of(tool),
                Duration.ofMillis(12), AuditRecord.Outcome.OK, Optional.empty(), Optional.empty(),
                Optional.of(subject), Optional.empty());
    }

    @Test
    void twoReplicasStartingTogetherApplyEachMigrationOnce() throws Exception {
        try (ExecutorService both = Executors.newVirtualThreadPerTaskExecutor()) {
            Callable<PostgresStore> open = () -> PostgresStore.open(db.settings(), Clock.systemUTC());
            Future<PostgresStore> a = both.submit(open);
            Future<PostgresStore> b = both.submit(open);
            a.get().close();
            b.get().close();
        }
        assertThat(db.count("SELECT count(*) FROM " + db.schema + ".warden_schema_history WHERE success AND version = '1'"))
                .isEqualTo(1);
    }

    @Test
    void anIncidentOneReplicaRecordsIsFoundByAnotherWithItsCredentialsReplaced() throws Exception {
        Incident written = incident(Instant.now().truncatedTo(ChronoUnit.MILLIS),
                "connect failed: postgres://app:Xk9vQ2mPz7LwR4tB@db.internal:5432/app");
        try (PostgresStore a = PostgresStore.open(db.settings().withWaitForCommit(true), Clock.systemUTC());
             PostgresStore b = PostgresStore.openReader(db.settings())) {
            a.incidents().record(written);
            Incident found = b.incidents().find(written.ref()).orElseThrow();
            assertThat(found.ref()).isEqualTo(written.ref());
            assertThat(found.time()).isEqualTo(written.time());
            assertThat(found.tool()).contains("query");
            assertThat(found.subject()).contains("alice");
            assertThat(found.reason()).contains("upstream answered with an error");
            assertThat(found.original().orElseThrow()).doesNotContain("Xk9vQ2mPz7LwR4tB").contains("[redacted:url-password]");
            assertThat(b.incidents().list(written.time().minusSeconds(1), Optional.of(ErrorCode.UPSTREAM_ERROR),
                    Optional.of("query"), Optional.of("alice"), 10)).extracting(Incident::ref).containsExactly(written.ref());
        }
    }

    @Test
    void aBoundedPeriodListsOnlyTheIncidentsBeforeItsEnd() throws Exception {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Incident inside = incident(now.minusSeconds(7200), "inside the period");
        Incident after = incident(now.minusSeconds(60), "after the period");
        try (PostgresStore store = PostgresStore.open(db.settings().withWaitForCommit(true), Clock.systemUTC())) {
            store.incidents().record(inside);
            store.incidents().record(after);
            assertThat(store.incidents().list(now.minusSeconds(10_800), Optional.of(now.minusSeconds(3600)),
                    Optional.empty(), 10)).extracting(Incident::ref).containsExactly(inside.ref());
        }
    }

    @Test
    void anAuditRecordKeepsItsCallersIssuerAndKindBesideTheSubject() throws Exception {
        AuditRecord byKey = audit(Instant.now(), "query", "key:alice").withCaller(Optional.of(new Caller("key:alice",
                Optional.empty(), "api-key", Set.of(), Map.of(), Caller.Kind.API_KEY, Optional.empty())));
        AuditRecord byToken = audit(Instant.now(), "query", "key:alice").withCaller(Optional.of(new Caller("key:alice",
                Optional.empty(), "https://as.example", Set.of(), Map.of(), Caller.Kind.JWT, Optional.empty())));
        try (PostgresStore store = PostgresStore.open(db.settings().withWaitForCommit(true), Clock.systemUTC())) {
            store.audit().record(byKey);
            store.audit().record(byToken);

            assertThat(store.audit().list(AuditQuery.since(Instant.now().minusSeconds(600), 10).withSubject("key:alice")))
                    .extracting(r -> r.kind().orElse("") + " " + r.issuer().orElse(""))
                    .containsExactlyInAnyOrder("API_KEY api-key", "JWT https://as.example");
        }
    }

    @Test
    void aNulInAnUpstreamsTextDoesNotFailTheBatch() throws Exception {
        Incident written = incident(Instant.now(), "bad\0byte");
        try (PostgresStore a = PostgresStore.open(db.settings().withWaitForCommit(true), Clock.systemUTC())) {
            a.incidents().record(written);
            assertThat(UnrecordedRefs.contains(written.ref())).isFalse();
            assertThat(a.incidents().find(written.ref()).orElseThrow().original()).contains("bad\0byte");
        }
    }

    @Test
    void concurrentWritersWaitingForTheirCommitAreAllCommittedInFewerTransactions() throws Exception {
        int writers = 50;
        int each = 20;
        try (PostgresStore store = PostgresStore.open(db.settings().withWaitForCommit(true), Clock.systemUTC())) {
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<?>> done = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    String subject = "writer-" + w;
                    done.add(pool.submit(() -> {
                        for (int i = 0; i < each; i++) {
                            store.audit().record(audit(Instant.now(), "query", subject));
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            }
            // Acknowledged means committed: every record is there as soon as the writers return.
            assertThat(db.count("SELECT count(*) FROM " + db.schema + ".warden_audit")).isEqualTo(writers * each);
            assertThat(db.count("SELECT count(DISTINCT xmin::text) FROM " + db.schema + ".warden_audit"))
                    .as("transactions").isLessThan(writers * each);
            assertThat(store.audit().list(AuditQuery.since(Instant.now().minusSeconds(600), 1000)
                    .withSubject("writer-7"))).hasSize(each);
        }
    }

    @Test
    void failClosedARecordWhoseWriterIsInterruptedWhileWaitingIsStillCommittedAndTheInterruptKept() throws Exception {
        try (PostgresStore store = PostgresStore.open(db.settings().withWaitForCommit(true), Clock.systemUTC())) {
            Thread.currentThread().interrupt(); // the request being recorded was cancelled by its client
            boolean keptInterrupt;
            try {
                store.audit().record(audit(Instant.now(), "query", "erin"));
            } finally {
                keptInterrupt = Thread.interrupted();
            }
            assertThat(keptInterrupt).as("the cancel still stops the request's work").isTrue();
            assertThat(db.count("SELECT count(*) FROM " + db.schema + ".warden_audit WHERE subject = 'erin'"))
                    .as("acknowledged, so committed").isEqualTo(1);
            assertThat(store.audit().recording()).isTrue();
        }
    }

    @Test
    void aRecordPostgresRefusesFailsAloneAndTheRestOfItsBatchIsCommitted() throws Exception {
        try (PostgresStore store = PostgresStore.open(db.settings().withWaitForCommit(true), Clock.systemUTC())) {
            db.execute("ALTER TABLE " + db.schema + ".warden_audit ADD CONSTRAINT no_refused CHECK (subject <> 'refused')");
            List<Future<?>> done = new ArrayList<>();
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int w = 0; w < 40; w++) {
                    String subject = w == 20 ? "refused" : "fine";
                    done.add(pool.submit(() -> {
                        store.audit().record(audit(Instant.now(), "query", subject));
                        return null;
                    }));
                }
            }
            int failed = 0;
            for (Future<?> f : done) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(IOException.class).hasMessageContaining("23514");
                    failed++;
                }
            }
            assertThat(failed).isEqualTo(1);
            assertThat(db.count("SELECT count(*) FROM " + db.schema + ".warden_audit")).isEqualTo(39);
            assertThat(store.audit().recording()).as("PostgreSQL itself is fine").isTrue();
        }
    }

    @Test
    void retentionDropsWholeDayPartitionsPastTheMaximumAge() throws Exception {
        Instant now = Instant.parse("2026-03-10T12:00:00Z");
        MutableClock clock = new MutableClock(now);
        PostgresSettings settings = db.settings().withWaitForCommit(true).withMaxAge(Duration.ofDays(3));
        try (PostgresStore store = PostgresStore.open(settings, clock)) {
            for (int daysAgo = 6; daysAgo >= 0; daysAgo--) {
                store.audit().record(audit(now.minus(Duration.ofDays(daysAgo)), "query", "bob"));
            }
            assertThat(store.partitionDays(PostgresAuditLog.TABLE)).contains(LocalDate.parse("2026-03-04"),
                    LocalDate.parse("2026-03-12"));
            List<LocalDate> dropped = store.maintain();
            // 3 days before noon of the 10th is noon of the 7th: the 7th itself still holds kept records.
            assertThat(dropped).containsExactly(LocalDate.parse("2026-03-04"), LocalDate.parse("2026-03-05"),
                    LocalDate.parse("2026-03-06"));
            assertThat(store.partitionDays(PostgresAuditLog.TABLE)).first().isEqualTo(LocalDate.parse("2026-03-07"));
            assertThat(store.audit().list(AuditQuery.since(Instant.EPOCH, 100))).hasSize(4);
        }
    }

    @Test
    void aStoreWithNoTrafficStillTellsReadinessThatPostgresIsAway() throws Exception {
        try (TcpRelay relay = TcpRelay.to(TestDatabase.host(), TestDatabase.port());
             PostgresStore store = PostgresStore.open(db.settingsVia(relay.port()), Clock.systemUTC())) {
            assertThat(store.reachable()).isTrue();
            relay.cut();
            assertThat(store.reachable()).as("no write has failed, yet the database is gone").isFalse();
            relay.restore();
            assertThat(store.reachable()).isTrue();
        }
    }

    @Test
    void failClosedACallWhoseRecordCannotBeWrittenIsRefusedUntilPostgresAnswersAgain() throws Exception {
        MutableClock clock = new MutableClock(Instant.now());
        try (TcpRelay relay = TcpRelay.to(TestDatabase.host(), TestDatabase.port());
             PostgresStore store = PostgresStore.open(db.settingsVia(relay.port()).withWaitForCommit(true), clock)) {
            store.audit().record(audit(clock.instant(), "query", "carol"));
            relay.cut();
            assertThatThrownBy(() -> store.audit().record(audit(clock.instant(), "query", "carol")))
                    .isInstanceOf(IOException.class).hasMessageContaining("PostgreSQL")
                    .hasMessageNotContaining("warden-test");
            Incident lost = incident(clock.instant(), "boom");
            store.incidents().record(lost);
            assertThat(UnrecordedRefs.contains(lost.ref())).as("the peer is not given a ref that cannot be found").isTrue();
            assertThat(store.incidents().recording()).isFalse();
            relay.restore();
            clock.advance(Duration.ofSeconds(1));
            assertThat(store.incidents().recording()).isTrue();
            store.audit().record(audit(clock.instant(), "query", "carol"));
            assertThat(db.count("SELECT count(*) FROM " + db.schema + ".warden_audit")).isEqualTo(2);
        }
    }

    @Test
    void withoutFailClosedARecordIsQueuedAndTheCallIsNotHeldWhilePostgresIsAway() throws Exception {
        try (TcpRelay relay = TcpRelay.to(TestDatabase.host(), TestDatabase.port());
             PostgresStore store = PostgresStore.open(db.settingsVia(relay.port()), Clock.systemUTC())) {
            relay.cut(); // the writer's connection is gone
            relay.stall(); // and a new one hangs: PostgreSQL stopped answering
            for (int i = 0; i < 100; i++) {
                store.audit().record(audit(Instant.now(), "query", "dave")); // returns: queued, not waited for
                store.incidents().record(incident(Instant.now(), "boom"));
            }
            // Every call returned while nothing could be committed: none waited for PostgreSQL.
            assertThat(db.count("SELECT count(*) FROM " + db.schema + ".warden_audit")).isZero();
            relay.cut();
        }
    }

    @Test
    void withoutFailClosedAFullQueueRefusesTheAuditRecordAndMarksTheIncidentUnrecorded() throws Exception {
        try (TcpRelay relay = TcpRelay.to(TestDatabase.host(), TestDatabase.port());
             PostgresStore store = PostgresStore.open(
                     db.settingsVia(relay.port()).withBatching(1, Duration.ZERO).withQueueCapacity(1), Clock.systemUTC())) {
            relay.cut();
            relay.stall(); // the writer holds at most one batch of one, hung on a connection that never answers
            List<Throwable> refused = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                try {
                    store.audit().record(audit(Instant.now(), "query", "erin"));
                } catch (IOException e) {
                    refused.add(e);
                }
            }
            assertThat(refused).isNotEmpty().allSatisfy(e -> assertThat(e).hasMessageContaining("queue is full")
                    .hasMessageNotContaining("warden-test"));
            List<Incident> incidents = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                Incident incident = incident(Instant.now(), "boom");
                store.incidents().record(incident);
                incidents.add(incident);
            }
            assertThat(incidents).as("a refused incident's ref is not handed out")
                    .anySatisfy(i -> assertThat(UnrecordedRefs.contains(i.ref())).isTrue());
            relay.cut();
        }
    }
}
