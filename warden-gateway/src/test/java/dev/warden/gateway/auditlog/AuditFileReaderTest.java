package dev.warden.gateway.auditlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.segment.Retention;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded audit log read back from its files, as the console's tail and the CLI read it. */
class AuditFileReaderTest {

    private static final Instant DAY1 = Instant.parse("2026-11-27T10:00:00Z");
    private static final Instant DAY2 = Instant.parse("2026-11-28T10:00:00Z");
    private static final Clock CLOCK = Clock.fixed(DAY2.plusSeconds(3600), ZoneOffset.UTC);

    @TempDir
    Path dir;

    private static AuditRecord call(Instant at, String tool, AuditRecord.Outcome outcome, Optional<String> subject) {
        return new AuditRecord(at, "claude-ai#3", Optional.of("crm"), "tools/call", Optional.of(tool),
                Duration.ofNanos(1_234_567), outcome, outcome == AuditRecord.Outcome.OK ? Optional.empty()
                : Optional.of("UPSTREAM_ERROR"), outcome == AuditRecord.Outcome.OK ? Optional.empty()
                : Optional.of("ref_bskah3tjq2bv64cp"), subject, subject.map(s -> "client-\"1\""),
                subject.map(s -> "api-key"), subject.map(s -> "API_KEY"));
    }

    /** Records written, oldest first: two days, odd strings, callers and none. */
    private List<AuditRecord> write(int perDay) throws Exception {
        List<AuditRecord> written = new ArrayList<>();
        try (FileAuditLog log = FileAuditLog.open(dir, Retention.DEFAULT, CLOCK)) {
            for (Instant day : List.of(DAY1, DAY2)) {
                for (int i = 0; i < perDay; i++) {
                    AuditRecord r = call(day.plusMillis(i), i % 3 == 0 ? "<script>\"é😀\u0001" : "lookup",
                            i % 2 == 0 ? AuditRecord.Outcome.OK : AuditRecord.Outcome.TOOL_ERROR,
                            i % 4 == 0 ? Optional.of("key:alice") : Optional.empty());
                    log.record(r);
                    written.add(r);
                }
            }
        }
        return written;
    }

    private static List<AuditRecord> newestFirst(List<AuditRecord> written) {
        List<AuditRecord> out = new ArrayList<>(written);
        java.util.Collections.reverse(out);
        return out;
    }

    @Test
    void recordsComeBackNewestFirstAcrossDaysAndARestart() throws Exception {
        List<AuditRecord> written = write(7);

        assertThat(FileAuditLog.reader(dir).list(AuditQuery.since(Instant.EPOCH, 100)))
                .containsExactlyElementsOf(newestFirst(written));
        assertThat(FileAuditLog.reader(dir).list(AuditQuery.since(Instant.EPOCH, 3)))
                .containsExactlyElementsOf(newestFirst(written).subList(0, 3));
        // a gateway started again reads what the one before it wrote
        try (FileAuditLog again = FileAuditLog.open(dir, Retention.DEFAULT, CLOCK)) {
            assertThat(again.list(AuditQuery.since(Instant.EPOCH, 100))).containsExactlyElementsOf(newestFirst(written));
        }
    }

    @Test
    void theQueryFiltersAsPostgresqlDoes() throws Exception {
        List<AuditRecord> written = write(8);
        AuditLogReader reader = FileAuditLog.reader(dir);

        assertThat(reader.list(AuditQuery.since(DAY2, 100))).containsExactlyElementsOf(
                newestFirst(written).stream().filter(r -> !r.time().isBefore(DAY2)).toList());
        assertThat(reader.list(new AuditQuery(Instant.EPOCH, Optional.of(DAY2), Optional.empty(), Optional.empty(),
                Optional.empty(), 100))).hasSize(8).allMatch(r -> r.time().isBefore(DAY2));
        assertThat(reader.list(AuditQuery.since(Instant.EPOCH, 100).withTool("lookup"))).hasSize(10)
                .allMatch(r -> r.tool().orElseThrow().equals("lookup"));
        assertThat(reader.list(AuditQuery.since(Instant.EPOCH, 100).withSubject("key:alice"))).hasSize(4)
                .allMatch(r -> r.issuer().orElseThrow().equals("api-key"));
        assertThat(reader.list(AuditQuery.since(Instant.EPOCH, 100).withOutcome(AuditRecord.Outcome.TOOL_ERROR)))
                .hasSize(8).allMatch(r -> r.ref().isPresent());
    }

    @Test
    void aLineBeingWrittenAndLinesThatAreNoRecordArePassedOver() throws Exception {
        // enough records that a file spans several of the blocks it is read back in
        List<AuditRecord> written = write(1500);
        Path today = dir.resolve("audit-2026-11-28.jsonl");
        Files.writeString(today, "not json\n{\"time\":\"yesterday\"}\n" + "x".repeat(AuditFileReader.MAX_LINE + 10)
                + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        Files.writeString(today, FileAuditLog.line(written.get(0)).substring(0, 40), StandardCharsets.UTF_8,
                StandardOpenOption.APPEND);

        List<AuditRecord> read = FileAuditLog.reader(dir).list(AuditQuery.since(Instant.EPOCH, 10_000));

        assertThat(read).containsExactlyElementsOf(newestFirst(written));
    }

    @Test
    void aLogNeverWrittenIsEmptyAndStaysUntouched() {
        Path none = dir.resolve("audit");

        assertThat(FileAuditLog.reader(none).list(AuditQuery.since(Instant.EPOCH, 10))).isEmpty();
        assertThat(none).doesNotExist();
    }

    @Test
    void aFileThatCannotBeReadIsSaidAsUnreadable() throws Exception {
        Files.createDirectories(dir.resolve("audit-2026-11-28.jsonl"));

        assertThatThrownBy(() -> FileAuditLog.reader(dir).list(AuditQuery.since(Instant.EPOCH, 10)))
                .isInstanceOf(UncheckedIOException.class).hasMessageContaining("cannot be read");
    }
}
