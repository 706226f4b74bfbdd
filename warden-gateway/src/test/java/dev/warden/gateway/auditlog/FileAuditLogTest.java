package dev.warden.gateway.auditlog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.identity.Caller;
import dev.warden.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

class FileAuditLogTest {

    @TempDir
    Path dir;

    /** The line as the mapper writes the same members. */
    private static String byMapper(AuditRecord r) {
        ObjectNode line = Json.object();
        line.put("time", r.time().toString());
        line.put("client", r.client());
        r.upstream().ifPresent(u -> line.put("upstream", u));
        line.put("method", r.method());
        r.tool().ifPresent(t -> line.put("tool", t));
        line.put("durationMs", r.duration().toNanos() / 1_000_000.0);
        line.put("outcome", r.outcome().name());
        r.code().ifPresent(c -> line.put("code", c));
        r.ref().ifPresent(ref -> line.put("ref", ref));
        r.subject().ifPresent(v -> line.put("subject", v));
        r.clientId().ifPresent(v -> line.put("clientId", v));
        r.issuer().ifPresent(v -> line.put("issuer", v));
        r.kind().ifPresent(v -> line.put("kind", v));
        return line + "\n";
    }

    private static final List<AuditRecord> RECORDS = List.of(
            new AuditRecord(Instant.parse("2026-11-23T19:00:00.123456789Z"), "claude-ai#3", Optional.of("crm"),
                    "tools/call", Optional.of("lookup"), Duration.ofNanos(1_234_567), AuditRecord.Outcome.OK,
                    Optional.empty(), Optional.empty()),
            new AuditRecord(Instant.parse("2026-11-23T00:00:00Z"), "c#1", Optional.empty(), "weird\"\\\n\r\t\b\f\u0001\u001f"
                    + "é😀\u007f</", Optional.empty(), Duration.ZERO, AuditRecord.Outcome.TOOL_ERROR,
                    Optional.of("UPSTREAM_ERROR"), Optional.of("ref_bskah3tjq2bv64cp")),
            new AuditRecord(Instant.parse("2026-01-01T23:59:59.5Z"), "x#2", Optional.of("u"), "resources/read",
                    Optional.empty(), Duration.ofSeconds(90_000), AuditRecord.Outcome.CANCELLED, Optional.empty(),
                    Optional.empty()),
            new AuditRecord(Instant.parse("2026-01-01T23:59:59Z"), "x#2", Optional.of("u"), "tools/call",
                    Optional.of("(unknown)"), Duration.ofNanos(1), AuditRecord.Outcome.ERROR,
                    Optional.of("BLOCKED"), Optional.empty()));

    private static final AuditRecord AUTHENTICATED =
            new AuditRecord(Instant.parse("2026-01-02T00:00:00Z"), "cursor#9", Optional.of("u"), "tools/call",
                    Optional.of("lookup"), Duration.ofMillis(3), AuditRecord.Outcome.OK, Optional.empty(),
                    Optional.empty(), Optional.of("alice@example.com"), Optional.of("cursor-\"desktop\""));

    @Test
    void anAuthenticatedCallersSubjectAndClientIdAreWrittenAndOldLinesHaveNeither() {
        assertThat(FileAuditLog.line(AUTHENTICATED)).isEqualTo(byMapper(AUTHENTICATED))
                .contains(",\"subject\":\"alice@example.com\",\"clientId\":\"cursor-\\\"desktop\\\"\"}");
        assertThat(FileAuditLog.line(RECORDS.get(0))).doesNotContain("subject").doesNotContain("clientId");
    }

    @Test
    void theLineTellsAnApiKeyFromATokenClaimingItsSubject() {
        Caller key = new Caller("key:alice", Optional.empty(), "api-key", Set.of(), Map.of(), Caller.Kind.API_KEY,
                Optional.empty());
        Caller token = new Caller("key:alice", Optional.empty(), "https://as.example", Set.of(), Map.of(),
                Caller.Kind.JWT, Optional.empty());

        String byKey = FileAuditLog.line(RECORDS.get(0).withCaller(Optional.of(key)));
        String byToken = FileAuditLog.line(RECORDS.get(0).withCaller(Optional.of(token)));

        assertThat(byKey).contains("\"subject\":\"key:alice\"", "\"issuer\":\"api-key\"", "\"kind\":\"API_KEY\"");
        assertThat(byToken).contains("\"subject\":\"key:alice\"", "\"issuer\":\"https://as.example\"",
                "\"kind\":\"JWT\"");
    }

    @Test
    void eachLineIsWhatTheMapperWritesForTheSameMembers() {
        for (AuditRecord r : RECORDS) {
            assertThat(FileAuditLog.line(r)).isEqualTo(byMapper(r));
        }
    }

    @Test
    void recordsAreAppendedToTheFileOfTheirUtcDay() throws Exception {
        try (FileAuditLog log = FileAuditLog.open(dir)) {
            for (AuditRecord r : RECORDS) {
                log.record(r);
            }
        }
        assertThat(Files.readString(dir.resolve("audit-2026-11-23.jsonl")))
                .isEqualTo(byMapper(RECORDS.get(0)) + byMapper(RECORDS.get(1)));
        assertThat(Files.readString(dir.resolve("audit-2026-01-01.jsonl")))
                .isEqualTo(byMapper(RECORDS.get(2)) + byMapper(RECORDS.get(3)));
    }

    @Test
    void aRecordWrittenByAnInterruptedThreadIsWrittenWholeTheInterruptKeptAndTheLogWritesOn() throws Exception {
        try (FileAuditLog log = FileAuditLog.open(dir)) {
            log.record(RECORDS.get(0));
            Thread.currentThread().interrupt(); // the request being recorded was cancelled by its client
            boolean keptInterrupt;
            try {
                log.record(RECORDS.get(1));
            } finally {
                keptInterrupt = Thread.interrupted();
            }
            log.record(AUTHENTICATED);
            assertThat(keptInterrupt).as("the cancel still stops the request's work").isTrue();
        }
        assertThat(Files.readString(dir.resolve("audit-2026-11-23.jsonl")))
                .isEqualTo(byMapper(RECORDS.get(0)) + byMapper(RECORDS.get(1)));
        assertThat(Files.readString(dir.resolve("audit-2026-01-02.jsonl"))).isEqualTo(byMapper(AUTHENTICATED));
    }
}
