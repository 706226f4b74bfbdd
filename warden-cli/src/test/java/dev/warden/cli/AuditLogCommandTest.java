package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.gateway.auditlog.AuditRecord;
import dev.warden.gateway.auditlog.FileAuditLog;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code warden incidents audit-log} without PostgreSQL reads the embedded log, as the console does. */
class AuditLogCommandTest {

    @TempDir
    Path data;

    private static AuditRecord call(String tool, Instant at, AuditRecord.Outcome outcome) {
        return new AuditRecord(at, "claude-ai#3", Optional.of("crm"), "tools/call", Optional.of(tool),
                Duration.ofMillis(12), outcome, Optional.empty(), Optional.empty());
    }

    @Test
    void theEmbeddedLogIsReadNewestFirstAndFiltered() throws Exception {
        Instant now = Instant.now();
        try (FileAuditLog log = FileAuditLog.open(data.resolve("audit"))) {
            log.record(call("lookup", now.minusSeconds(7200), AuditRecord.Outcome.OK));
            log.record(call("lookup", now.minusSeconds(20), AuditRecord.Outcome.OK));
            log.record(call("search", now.minusSeconds(10), AuditRecord.Outcome.OK));
            log.record(call("lookup", now.minusSeconds(5), AuditRecord.Outcome.TOOL_ERROR));
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = {"incidents", "audit-log", "--data-dir", data.toString(), "--since", "1h", "--tool", "lookup"};
        CommandLine line = Warden.commandLine(args);
        line.setOut(new PrintWriter(out));
        line.setErr(new PrintWriter(err));

        assertThat(line.execute(args)).as(err.toString()).isZero();

        assertThat(out.toString().lines().toList()).hasSize(2).satisfiesExactly(
                first -> assertThat(first).contains("TOOL_ERROR", "tools/call lookup"),
                second -> assertThat(second).contains("OK", "tools/call lookup"));
    }

    @Test
    void aPeriodGivenByTimesListsOnlyItsRecords() throws Exception {
        Instant now = Instant.now();
        try (FileAuditLog log = FileAuditLog.open(data.resolve("audit"))) {
            log.record(call("before", now.minusSeconds(7200), AuditRecord.Outcome.OK));
            log.record(call("inside", now.minusSeconds(1800), AuditRecord.Outcome.OK));
            log.record(call("after", now.minusSeconds(60), AuditRecord.Outcome.OK));
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = {"incidents", "audit-log", "--data-dir", data.toString(), "--since",
                now.minusSeconds(3600).toString(), "--until", "10m"};
        CommandLine line = Warden.commandLine(args);
        line.setOut(new PrintWriter(out));
        line.setErr(new PrintWriter(err));

        assertThat(line.execute(args)).as(err.toString()).isZero();

        assertThat(out.toString().lines().toList()).singleElement().asString().contains("tools/call inside");
    }

    @Test
    void aPeriodThatIsNeitherAnAgeNorATimeIsRefusedWithTheGrammar() {
        StringWriter err = new StringWriter();
        String[] args = {"incidents", "audit-log", "--data-dir", data.toString(), "--until", "yesterday"};
        CommandLine line = Warden.commandLine(args);
        line.setOut(new PrintWriter(new StringWriter()));
        line.setErr(new PrintWriter(err));

        assertThat(line.execute(args)).isEqualTo(2);
        assertThat(err.toString()).contains("--since and --until are an age", "2026-11-29T10:15:00Z");
    }
}
