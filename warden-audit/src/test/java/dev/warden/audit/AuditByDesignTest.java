package dev.warden.audit;

import static dev.warden.audit.ScriptedServer.isError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * A tool that runs the SQL or the commands its caller writes does so by design: what its canaries
 * provoke is the capability note WDN-X006, never an injection (X001, X004) in a tool that merely
 * does its job.
 */
class AuditByDesignTest {

    private static Report audit(ScriptedServer server) {
        return Audit.custom().target(server.target()).callTimeout(Duration.ofSeconds(5)).rate(10_000).build().run();
    }

    private static String schema(String property, String description) {
        return "{\"type\":\"object\",\"properties\":{\"" + property + "\":{\"type\":\"string\",\"description\":\""
                + description + "\"}},\"required\":[\"" + property + "\"]}";
    }

    private static ScriptedServer one(String name, String property, String description, Function<String, ObjectNode> answer) {
        return new ScriptedServer().tool(name, schema(property, description),
                args -> Optional.of(answer.apply(args.path(property).asString(""))));
    }

    private static ObjectNode text(String text) {
        ObjectNode body = Json.object();
        body.putObject("result").putArray("content").addObject().put("type", "text").put("text", text);
        return body;
    }

    /** What SQLite says of a value run as a whole statement. */
    private static ObjectNode sqlite(String sql) {
        return sql.contains("'") ? isError("SQLITE_ERROR: unrecognized token: \"'\"")
                : isError("SQLITE_ERROR: near \"" + sql.split("[^A-Za-z0-9]")[0] + "\": syntax error");
    }

    /** What {@code sh -c value} prints of the echo canaries: each {@code echo X}, quotes joined. */
    private static ObjectNode sh(String value) {
        int at = value.indexOf("echo ");
        if (at < 0) {
            return isError("sh: 1: " + value.split(" ")[0] + ": not found");
        }
        String rest = value.substring(at + 5);
        int end = 0;
        while (end < rest.length() && " )`#\n".indexOf(rest.charAt(end)) < 0) {
            end++;
        }
        return text(rest.substring(0, end).replace("\"\"", "") + "\n");
    }

    private static List<Finding> of(Report report, Rule rule) {
        return report.findings().stream().filter(f -> f.rule() == rule).toList();
    }

    @Test
    void a_tool_whose_schema_says_the_value_is_sql_gets_the_note_not_sql_injection() {
        Report report = audit(one("query", "sql", "The statement", AuditByDesignTest::sqlite));

        assertThat(of(report, Rule.SQL_INJECTION)).as(report.findings().toString()).isEmpty();
        assertThat(of(report, Rule.CALLER_CODE_BY_DESIGN)).singleElement().satisfies(f -> {
            assertThat(f.tool()).contains("query");
            assertThat(f.severity()).isEqualTo(Severity.NOTE);
            assertThat(f.rule().cwe()).isEqualTo(749);
            assertThat(f.message()).contains("runs the SQL its caller writes");
        });
    }

    @Test
    void a_baseline_answer_that_already_shows_an_sql_error_makes_the_value_sql_by_design() {
        // Nothing in the schema says SQL; the baseline's own answer does.
        Report report = audit(one("lookup", "input", "What to look up", AuditByDesignTest::sqlite));

        assertThat(of(report, Rule.SQL_INJECTION)).as(report.findings().toString()).isEmpty();
        assertThat(of(report, Rule.CALLER_CODE_BY_DESIGN)).hasSize(1);
    }

    @Test
    void a_shell_tool_whose_echo_canary_runs_gets_the_note_not_command_injection() {
        Report report = audit(one("bash", "command", "The shell command to run", AuditByDesignTest::sh));

        assertThat(of(report, Rule.COMMAND_INJECTION)).as(report.findings().toString()).isEmpty();
        assertThat(of(report, Rule.CALLER_CODE_BY_DESIGN)).singleElement()
                .satisfies(f -> assertThat(f.message()).contains("runs the commands its caller writes"));
    }

    @Test
    void a_terminal_tool_whose_shell_errors_show_is_no_command_injection() {
        Report report = audit(one("terminal", "input", "Keys to type",
                value -> value.contains("'") ? isError("/bin/sh: 1: Syntax error: Unterminated quoted string")
                        : text("ok")));

        assertThat(of(report, Rule.COMMAND_INJECTION)).as(report.findings().toString()).isEmpty();
    }

    @Test
    void a_lookup_tool_that_says_nothing_of_sql_is_still_sql_injection() {
        Report report = audit(one("find_user", "name", "The user's name", name -> name.contains("'")
                ? isError("SQLITE_ERROR: unrecognized token: \"'\"") : text("[]")));

        assertThat(of(report, Rule.SQL_INJECTION)).as(report.findings().toString()).hasSize(1);
        assertThat(of(report, Rule.CALLER_CODE_BY_DESIGN)).isEmpty();
    }
}
