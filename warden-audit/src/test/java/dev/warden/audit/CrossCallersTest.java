package dev.warden.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.audit.report.ReportFormat;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Authorization across two callers, against a notes server with two API keys: the vulnerable one
 * serves any note to any key, the safe one a caller's own and the shared one only.
 */
class CrossCallersTest {

    private static Report audit(NotesHttpServer server, boolean twoCallers) {
        Map<String, String> alice = Map.of("X-API-Key", NotesHttpServer.ALICE);
        Audit.Builder b = Audit.custom().target(Target.http(server.mcp(), alice)).rate(10_000)
                .callTimeout(Duration.ofSeconds(5));
        if (twoCallers) {
            b.callers(new Caller(alice, Optional.empty()),
                    new Caller(Map.of("X-API-Key", NotesHttpServer.BOB), Optional.empty()));
        }
        return b.build().run();
    }

    @Test
    void aCallerReadingAnothersNoteIsFound() throws IOException {
        try (NotesHttpServer server = new NotesHttpServer(true, false)) {
            Report report = audit(server, true);

            List<Finding> crossed = report.findings().stream().filter(f -> f.rule() == Rule.CROSS_CALLER_ACCESS).toList();
            assertThat(crossed).hasSize(1);
            assertThat(crossed.get(0).tool()).contains("get_note");
            assertThat(crossed.get(0).rule().cwe()).isEqualTo(639);
            assertThat(crossed.get(0).severity()).isEqualTo(Severity.HIGH);
            for (ReportFormat format : ReportFormat.values()) {
                assertThat(format.render(report)).doesNotContain(NotesHttpServer.ALICE).doesNotContain(NotesHttpServer.BOB)
                        .doesNotContain("saffron").doesNotContain("Dentist");
            }
        }
    }

    @Test
    void aServerThatKeepsCallersApartHasNoSuchFinding() throws IOException {
        try (NotesHttpServer server = new NotesHttpServer(false, false)) {
            Report report = audit(server, true);

            assertThat(report.findings()).noneMatch(f -> f.rule() == Rule.CROSS_CALLER_ACCESS);
            assertThat(report.skipped()).noneMatch(s -> s.startsWith("authorization:"));
        }
    }

    @Test
    void twoAccountsLoggedInThroughTheLoginToolAreCrossedToo() throws IOException {
        try (NotesHttpServer server = new NotesHttpServer(true, false)) {
            Report report = Audit.custom().target(Target.http(server.mcp(), Map.of())).rate(10_000)
                    .callTimeout(Duration.ofSeconds(5))
                    .callers(new Caller(Map.of(), Optional.of(new Caller.Account("alice", "pw-alice-1"))),
                            new Caller(Map.of(), Optional.of(new Caller.Account("bob", "pw-bob-2"))))
                    .build().run();

            assertThat(report.findings()).filteredOn(f -> f.rule() == Rule.CROSS_CALLER_ACCESS)
                    .extracting(f -> f.tool().orElse("")).containsExactly("get_note");
            for (ReportFormat format : ReportFormat.values()) {
                assertThat(format.render(report)).doesNotContain("pw-alice-1").doesNotContain("pw-bob-2")
                        .doesNotContain(NotesHttpServer.ALICE).doesNotContain(NotesHttpServer.BOB);
            }
        }
    }

    @Test
    void loggedInCallersOfASafeServerCrossNothing() throws IOException {
        try (NotesHttpServer server = new NotesHttpServer(false, false)) {
            Report report = Audit.custom().target(Target.http(server.mcp(), Map.of())).rate(10_000)
                    .callTimeout(Duration.ofSeconds(5))
                    .callers(new Caller(Map.of(), Optional.of(new Caller.Account("alice", "pw-alice-1"))),
                            new Caller(Map.of(), Optional.of(new Caller.Account("bob", "pw-bob-2"))))
                    .build().run();

            assertThat(report.findings()).noneMatch(f -> f.rule() == Rule.CROSS_CALLER_ACCESS);
            assertThat(report.skipped()).noneMatch(s -> s.startsWith("authorization:"));
        }
    }

    @Test
    void withOneCallerNothingIsCrossed() throws IOException {
        try (NotesHttpServer server = new NotesHttpServer(true, false)) {
            Report report = audit(server, false);

            assertThat(report.findings()).noneMatch(f -> f.rule() == Rule.CROSS_CALLER_ACCESS);
        }
    }
}
