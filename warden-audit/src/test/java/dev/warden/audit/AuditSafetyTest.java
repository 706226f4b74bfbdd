package dev.warden.audit;

import static dev.warden.audit.ScriptedServer.isError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.testkit.MutableClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Safe to point at production: what is never called, what a dry run does, the budget and the rate. */
class AuditSafetyTest {

    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},"
            + "\"required\":[\"path\"]}";

    private static ScriptedServer server() {
        return new ScriptedServer()
                .tool("read_file", SCHEMA, args -> Optional.of(isError("{\"code\":\"NOT_FOUND\"}")))
                .tool("delete_file", SCHEMA, args -> Optional.of(isError("{\"code\":\"NOT_FOUND\"}")))
                .tool("wipe", SCHEMA, "{\"destructiveHint\":true}", args -> Optional.of(isError("{\"code\":\"X\"}")))
                .tool("sendEmail", SCHEMA, args -> Optional.of(isError("{\"code\":\"X\"}")))
                .tool("purge_cache", SCHEMA, "{\"readOnlyHint\":true}", args -> Optional.of(isError("{\"code\":\"X\"}")));
    }

    private static Audit.Builder audit(ScriptedServer server) {
        return Audit.custom().target(server.target()).callTimeout(Duration.ofSeconds(5)).rate(10_000);
    }

    @Test
    void a_destructive_tool_is_never_called_without_the_flag_and_each_skip_says_why() {
        ScriptedServer server = server();

        Report report = audit(server).build().run();

        assertThat(server.calls()).doesNotContain("delete_file", "wipe", "sendEmail", "purge_cache").contains("read_file");
        assertThat(report.skipped()).anySatisfy(s -> assertThat(s).startsWith("delete_file:").contains("delete"))
                // a readOnlyHint is the server's hint; the name says it purges, and that is believed first
                .anySatisfy(s -> assertThat(s).startsWith("purge_cache:").contains("'purge'"))
                .anySatisfy(s -> assertThat(s).startsWith("wipe:").contains("destructiveHint"))
                .anySatisfy(s -> assertThat(s).startsWith("sendEmail:").contains("send"));
    }

    @Test
    void with_the_flag_destructive_tools_are_called() {
        ScriptedServer server = server();

        audit(server).allowDestructive(true).build().run();

        assertThat(server.calls()).contains("delete_file", "wipe", "sendEmail");
    }

    @Test
    void a_dry_run_makes_no_tool_call_and_lists_every_call_it_would_make() {
        ScriptedServer server = server();

        Report report = audit(server).dryRun(true).build().run();

        assertThat(server.methods()).doesNotContain("tools/call");
        assertThat(report.skipped()).contains("dry run: tools/call read_file: required property 'path' missing",
                "dry run: tools/call a tool that does not exist".replace("tools/call a", "tools/call: a"));
        assertThat(report.findings()).isEmpty();
    }

    @Test
    void the_plan_is_the_dry_run_s_list_of_calls() {
        ScriptedServer server = server();

        List<String> plan = audit(server).build().plan();

        assertThat(server.methods()).doesNotContain("tools/call");
        assertThat(plan).contains("tools/call read_file: valid arguments (the baseline)")
                .noneMatch(line -> line.contains("delete_file"));
    }

    @Test
    void the_budget_stops_probing_and_the_report_says_so() {
        ScriptedServer server = server();

        Report report = audit(server).budget(6).build().run();

        assertThat(report.requests()).isEqualTo(6);
        assertThat(server.methods()).hasSizeLessThanOrEqualTo(6);
        assertThat(report.skipped()).anySatisfy(s -> assertThat(s).startsWith("budget: stopped after 6 requests"));
    }

    @Test
    void the_rate_spaces_requests_on_the_injected_clock() {
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        List<Duration> waits = new ArrayList<>();
        Report report = audit(server()).rate(10).clock(clock).sleeper(d -> {
            waits.add(d);
            clock.advance(d);
        }).build().run();

        // one wait before each request but the first (the handshake's two requests go out as one)
        assertThat(waits).hasSizeGreaterThanOrEqualTo(report.requests() - 2)
                .allSatisfy(d -> assertThat(d).isEqualTo(Duration.ofMillis(100)));
        assertThat(report.took()).isEqualTo(Duration.ofMillis(100L * waits.size()));
    }

    @Test
    void an_http_target_never_shows_a_header_value() {
        Target target = Target.http(URI.create("https://mcp.example.com/mcp"), Map.of("Authorization", "Bearer s3cr3t"));

        assertThat(target.describe()).isEqualTo("http: https://mcp.example.com/mcp (headers: Authorization)");
        assertThat(target.toString()).doesNotContain("s3cr3t");
        assertThatThrownBy(() -> Target.http(URI.create("https://user:pw@example.com/mcp"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageNotContaining("pw");
    }

    @Test
    void a_stdio_target_shows_no_credential_of_its_command_line() {
        Target target = Target.stdio(List.of("npx", "server-postgres", "postgresql://app:hunter2pass@db.example/app",
                "--api-key", "k-123456789", "GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789"));

        assertThat(target.describe()).startsWith("stdio: npx server-postgres ")
                .doesNotContain("hunter2pass", "k-123456789", "ghp_abcdefghijklmnopqrstuvwxyz0123456789")
                .contains("--api-key [redacted]", "GITHUB_TOKEN=[redacted]");
    }

    @Test
    void a_builder_refuses_bad_settings_naming_them() {
        assertThatThrownBy(() -> Audit.custom().budget(0)).hasMessageContaining("budget");
        assertThatThrownBy(() -> Audit.custom().rate(0)).hasMessageContaining("rate");
        assertThatThrownBy(() -> Audit.custom().callTimeout(Duration.ZERO)).hasMessageContaining("callTimeout");
        assertThatThrownBy(() -> Audit.custom().build()).hasMessageContaining("target");
    }
}
