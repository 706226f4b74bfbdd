package dev.warden.console.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.console.Console;
import dev.warden.console.feed.ConsoleFeed;
import dev.warden.core.segment.Retention;
import dev.warden.gateway.auditlog.AuditRecord;
import dev.warden.gateway.auditlog.AuditSink;
import dev.warden.gateway.auditlog.FileAuditLog;
import dev.warden.store.postgres.PostgresSettings;
import dev.warden.store.postgres.PostgresStore;
import dev.warden.testkit.LocalPostgres;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit page reads the tail from the gateway's audit store (the file log, PostgreSQL), so it
 * survives a restart and holds every replica's records; without a store, or when it cannot be
 * read, it shows this process's records, saying so.
 */
class ConsoleAuditTailTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Clock CLOCK = Clock.systemUTC();

    @TempDir
    Path dir;

    private Console console;

    @AfterEach
    void stop() {
        if (console != null) {
            console.close();
        }
    }

    private static AuditRecord call(String tool, Instant at) {
        return new AuditRecord(at.truncatedTo(ChronoUnit.MICROS), "claude-ai#3", Optional.of("crm"), "tools/call",
                Optional.of(tool), Duration.ofMillis(12), AuditRecord.Outcome.TOOL_ERROR,
                Optional.of("UPSTREAM_ERROR"), Optional.of("ref_bskah3tjq2bv64cp"));
    }

    private String audit() throws Exception {
        HttpResponse<String> page = HTTP.send(HttpRequest.newBuilder(console.uri().resolve("/audit")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy")).isPresent();
        return page.body();
    }

    @Test
    void theTailOfTheFileLogSurvivesARestart() throws Exception {
        Path audit = dir.resolve("audit");
        try (FileAuditLog before = FileAuditLog.open(audit, Retention.DEFAULT, CLOCK)) {
            before.record(call("before<b>restart", Instant.now().minusSeconds(5)));
        }
        // the gateway started again: its feed is empty, its log the same files
        ConsoleFeed feed = ConsoleFeed.of(CLOCK);
        try (FileAuditLog log = FileAuditLog.open(audit, Retention.DEFAULT, CLOCK)) {
            AuditSink gateway = feed.tee(log);
            gateway.record(call("after_restart", Instant.now()));
            console = Console.builder().feed(feed).auditLog(log).build().start();

            String page = audit();

            assertThat(page).contains("From the gateway's audit store.", "before&lt;b&gt;restart")
                    .doesNotContain("before<b>");
            assertThat(page.indexOf("after_restart")).as("newest first").isLessThan(page.indexOf("before&lt;b&gt;"));
        }
    }

    @Test
    void withPostgresqlTheTailHoldsEveryReplicasRecords() throws Exception {
        PostgresSettings settings = PostgresSettings.of(LocalPostgres.shared().url()).withSchema("wc_"
                + UUID.randomUUID().toString().replace("-", "").substring(0, 12).toLowerCase(Locale.ROOT))
                .withWaitForCommit(true);
        try (PostgresStore one = PostgresStore.open(settings, CLOCK);
             PostgresStore two = PostgresStore.open(settings, CLOCK)) {
            ConsoleFeed feed = ConsoleFeed.of(CLOCK);
            feed.tee(one.audit()).record(call("on_replica_one", Instant.now().minusSeconds(1)));
            two.audit().record(call("on_replica_two", Instant.now()));
            console = Console.builder().feed(feed).auditLog(one.audit()).build().start();

            String page = audit();

            assertThat(page).contains("From the gateway's audit store.", "on_replica_one", "on_replica_two");
            assertThat(page.indexOf("on_replica_two")).isLessThan(page.indexOf("on_replica_one"));
        }
    }

    @Test
    void aStoreThatCannotBeReadGivesThisProcesssRecordsAndNoReason() throws Exception {
        ConsoleFeed feed = ConsoleFeed.of(CLOCK);
        feed.record(call("seen_here", Instant.now()));
        console = Console.builder().feed(feed).auditLog(query -> {
            throw new UncheckedIOException(new java.io.IOException("/var/lib/secret/audit-2026.jsonl: EACCES"));
        }).build().start();

        String page = audit();

        assertThat(page).contains("The audit store could not be read now", "seen_here")
                .doesNotContain("secret", "EACCES");
    }

    @Test
    void withoutAStoreTheTailIsThisProcesss() throws Exception {
        ConsoleFeed feed = ConsoleFeed.of(CLOCK);
        console = Console.builder().feed(feed).build().start();

        assertThat(audit()).contains("The gateway writes no audit log", "No request since the gateway started.");
        feed.record(call("seen_here", Instant.now()));
        assertThat(audit()).contains("seen_here");
    }
}
