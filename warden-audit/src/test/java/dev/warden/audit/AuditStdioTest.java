package dev.warden.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A stdio server launched as a process: its stderr is read for leaks like every answer, and what it
 * shows there is reported under the stderr rules (a log the host keeps, not text the model reads):
 * a credential as a low finding, traces and paths as a note.
 */
class AuditStdioTest {

    /** An MCP server in sh: one tool, whose every call writes a stack trace, a home path and a password to stderr. */
    private static final List<String> SERVER = ShellServer.command(
            "{\"name\":\"lookup\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\",\"maxLength\":64}}}}",
            "printf 'java.lang.IllegalStateException: lookup failed\\n\\tat com.acme.Lookup.find(Lookup.java:42)\\n\\tat com.acme.Lookup.run(Lookup.java:7)\\nreading /home/deploy/acme/lookup.db\\nretrying postgres://lookup:Xk29fLq7wR@db/acme\\n' >&2",
            "{\"content\":[{\"type\":\"text\",\"text\":\"{\\\\\"code\\\\\":\\\\\"NOT_FOUND\\\\\"}\"}],\"isError\":true}");

    @Test
    void what_the_server_writes_to_stderr_is_read_for_leaks() {
        Report report = audit();

        assertThat(report.server()).contains(new Report.ServerInfo("sh", "1"));
        assertThat(report.findings()).as(report.findings().toString()).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo(Rule.DETAIL_ON_STDERR);
            assertThat(f.tool()).isEqualTo(Optional.empty());
            assertThat(f.location()).isEqualTo("stderr");
            assertThat(f.evidence()).hasValueSatisfying(e -> assertThat(e.category()).isEqualTo("stack-trace"));
        }).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo(Rule.DETAIL_ON_STDERR);
            assertThat(f.location()).isEqualTo("stderr");
            assertThat(f.evidence()).hasValueSatisfying(e -> assertThat(e.category()).isEqualTo("path"));
        }).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo(Rule.LEAK_TO_STDERR);
            assertThat(f.location()).isEqualTo("stderr");
            assertThat(f.evidence()).hasValueSatisfying(e -> assertThat(e.category()).isEqualTo("secret"));
        });
        assertThat(report.findings().toString()).doesNotContain("Lookup.java:42", "/home/deploy", "Xk29fLq7wR");
    }

    @Test
    void a_credential_on_stderr_is_a_low_finding_and_a_trace_there_only_a_note() {
        Report report = audit();

        assertThat(Rule.LEAK_TO_STDERR.severity()).isEqualTo(Severity.LOW);
        assertThat(Rule.LEAK_TO_STDERR.cwe()).isEqualTo(532);
        assertThat(Rule.DETAIL_ON_STDERR.severity()).isEqualTo(Severity.NOTE);
        assertThat(report.findings()).filteredOn(f -> f.location().equals("stderr"))
                .isNotEmpty()
                .allSatisfy(f -> assertThat(f.rule()).isEqualTo(
                        f.evidence().orElseThrow().category().equals("secret") ? Rule.LEAK_TO_STDERR : Rule.DETAIL_ON_STDERR));
    }

    private static Report audit() {
        return Audit.custom().target(Target.stdio(SERVER))
                .callTimeout(Duration.ofSeconds(5)).rate(10_000).build().run();
    }
}
