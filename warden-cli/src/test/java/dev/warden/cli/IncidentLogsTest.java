package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.incident.Incident;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.segment.Retention;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What wrap and gateway write beside their incident store. */
class IncidentLogsTest {

    @TempDir
    Path dir;

    private static Incident incident() {
        return Incident.ofText(Ref.random(), Instant.parse("2026-11-23T10:00:00Z"), ErrorCode.UPSTREAM_ERROR,
                "tools/call", Optional.of("query"), Optional.of("db"),
                "FATAL: password authentication failed for user \"billing_rw\" at 10.20.0.7", List.of())
                .withArguments("{\"sql\":\"SELECT 1\"}");
    }

    @Test
    void stderrGetsTheRefAndCodeButNothingTheUpstreamOrTheCallerWrote() {
        PrintStream saved = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        Incident incident = incident();
        try {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            IncidentSink log = IncidentLogs.besideTheStore(Optional.empty(), Retention.DEFAULT);
            log.record(incident);
        } finally {
            System.setErr(saved);
        }
        String line = captured.toString(StandardCharsets.UTF_8);
        assertThat(line).contains(incident.ref().value()).contains("UPSTREAM_ERROR")
                .doesNotContain("billing_rw").doesNotContain("10.20.0.7").doesNotContain("SELECT");
    }

    @Test
    void anIncidentLogFileGetsWholeRecordsOwnerOnly() throws Exception {
        Path file = dir.resolve("incidents.jsonl");
        IncidentLogs.besideTheStore(Optional.of(file), Retention.DEFAULT).record(incident());
        assertThat(Files.readString(file)).contains("billing_rw");
        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
    }
}
