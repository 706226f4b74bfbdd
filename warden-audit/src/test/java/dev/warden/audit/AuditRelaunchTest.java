package dev.warden.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A server that stops is reported, started again, and probed on: one tool that crashes it does not
 * hide what the tools after it do. Relaunches are bounded; the report says when they ran out.
 */
class AuditRelaunchTest {

    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}";

    private static Audit.Builder audit(Target target) {
        return Audit.custom().target(target).callTimeout(Duration.ofSeconds(5)).rate(10_000);
    }

    private static ScriptedServer crashingBetweenTwo() {
        return new ScriptedServer()
                .tool("before", SCHEMA, args -> Optional.of(ScriptedServer.isError("that did not work")))
                .stoppingTool("crash", SCHEMA)
                .tool("after", SCHEMA, args -> Optional.of(ScriptedServer.isError("that did not work either")));
    }

    @Test
    void the_tools_after_one_that_stops_the_server_are_still_probed() {
        ScriptedServer server = crashingBetweenTwo();

        Report report = audit(server.target()).build().run();

        assertThat(server.calls()).contains("after");
        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo(Rule.NO_MACHINE_CODE);
            assertThat(f.tool()).contains("after");
        });
        assertThat(server.methods()).filteredOn("initialize"::equals).hasSize(2);
    }

    @Test
    void the_stop_is_reported_once_and_the_rest_of_that_tools_probes_are_not_sent() {
        ScriptedServer server = crashingBetweenTwo();

        Report report = audit(server.target()).build().run();

        assertThat(report.findings()).filteredOn(f -> f.rule() == Rule.UNANSWERED).singleElement().satisfies(f -> {
            assertThat(f.tool()).contains("crash");
            assertThat(f.message()).contains("the server stopped");
        });
        assertThat(server.calls()).filteredOn("crash"::equals).hasSize(1);
        assertThat(report.skipped()).contains("crash: the rest of its probes were not sent, a call to it stopped the server")
                .anySatisfy(s -> assertThat(s).startsWith("relaunch 1: the server stopped after: tools/call crash"));
    }

    @Test
    void relaunches_are_bounded_and_the_report_says_when_they_ran_out() {
        ScriptedServer server = new ScriptedServer().stoppingTool("crash1", SCHEMA).stoppingTool("crash2", SCHEMA)
                .stoppingTool("crash3", SCHEMA);

        Report report = audit(server.target()).maxRelaunches(1).build().run();

        assertThat(server.methods()).filteredOn("initialize"::equals).hasSize(2);
        assertThat(server.calls()).filteredOn(name -> name.startsWith("crash")).containsExactly("crash1", "crash2");
        assertThat(report.skipped()).anySatisfy(s -> assertThat(s).startsWith(
                "relaunch: the server stopped again after: tools/call crash2").endsWith("so the rest was not sent"));
    }

    /** An MCP server in sh whose tool "crash" exits with status 3; "after" fails in prose. */
    private static final List<String> SH_SERVER = ShellServer.command(
            "{\"name\":\"crash\",\"inputSchema\":{\"type\":\"object\"}},{\"name\":\"after\",\"inputSchema\":{\"type\":\"object\"}}",
            "*'\"name\":\"crash\"'*) exit 3 ;;", ":",
            "{\"content\":[{\"type\":\"text\",\"text\":\"that did not work\"}],\"isError\":true}");

    @Test
    void a_process_that_exits_is_reported_with_its_exit_status_and_started_again() {
        Report report = audit(Target.stdio(SH_SERVER)).build().run();

        assertThat(report.findings()).filteredOn(f -> f.rule() == Rule.UNANSWERED).singleElement().satisfies(f -> {
            assertThat(f.tool()).contains("crash");
            assertThat(f.message()).contains("exited (exit status 3)");
        });
        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo(Rule.NO_MACHINE_CODE);
            assertThat(f.tool()).contains("after");
        });
    }

    @Test
    void max_relaunches_is_zero_to_a_hundred() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Audit.custom().maxRelaunches(-1))
                .hasMessageContaining("maxRelaunches");
        assertThat(Audit.custom().target(new ScriptedServer().target()).build().maxRelaunches())
                .isEqualTo(Audit.DEFAULT_MAX_RELAUNCHES);
    }
}
