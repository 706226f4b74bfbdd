package dev.warden.audit;

import static dev.warden.audit.ScriptedServer.error;
import static dev.warden.audit.ScriptedServer.isError;
import static dev.warden.audit.ScriptedServer.result;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How a failure is shaped: each wrong shape is its own finding. */
class AuditShapesTest {

    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},"
            + "\"required\":[\"q\"]}";

    private static Report audit(ScriptedServer server, Duration timeout) {
        return Audit.custom().target(server.target()).callTimeout(timeout).rate(10_000).build().run();
    }

    private static Report audit(ScriptedServer server) {
        return audit(server, Duration.ofSeconds(5));
    }

    @Test
    void a_hostile_value_repeated_verbatim_in_an_error_is_reflected_input() {
        Report report = audit(new ScriptedServer().tool("search", SCHEMA,
                args -> Optional.of(isError("{\"code\":\"NOT_FOUND\",\"message\":\"nothing matches "
                        + args.path("q").asString("") + "\"}"))));

        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo(Rule.REFLECTED_INPUT);
            assertThat(f.tool()).contains("search");
            assertThat(f.location()).isEqualTo("/result/content/0/text");
            assertThat(f.evidence()).isPresent();
        });
    }

    @Test
    void a_tool_failure_answered_as_a_json_rpc_error_is_reported() {
        Report report = audit(new ScriptedServer().tool("search", SCHEMA, args -> Optional.of(args.has("q")
                ? result("{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}") : error(-32602, "q is required"))));

        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo(Rule.TOOL_ERROR_AS_PROTOCOL_ERROR);
            assertThat(f.tool()).contains("search");
            assertThat(f.probe()).isEqualTo("required property 'q' missing");
            assertThat(f.location()).isEqualTo("/error");
        });
    }

    @Test
    void an_unknown_tool_answered_as_an_is_error_result_is_reported() {
        Report report = audit(new ScriptedServer()
                .tool("search", SCHEMA, args -> Optional.of(result("{\"content\":[]}")))
                .unknownTool(name -> isError("no such tool")));

        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo(Rule.PROTOCOL_ERROR_AS_TOOL_ERROR);
            assertThat(f.probe()).isEqualTo("a tool that does not exist");
        });
    }

    @Test
    void an_unknown_tool_answered_as_an_internal_error_is_reported_and_invalid_params_is_not() {
        // server-postgres answers "Unknown tool" with -32603, as if the server had failed.
        Report internal = audit(new ScriptedServer()
                .tool("search", SCHEMA, args -> Optional.of(result("{\"content\":[]}")))
                .unknownTool(name -> error(-32603, "Unknown tool")));
        Report invalid = audit(new ScriptedServer()
                .tool("search", SCHEMA, args -> Optional.of(result("{\"content\":[]}")))
                .unknownTool(name -> error(-32602, "Unknown tool")));

        assertThat(internal.findings()).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo(Rule.UNKNOWN_TOOL_WRONG_CODE);
            assertThat(f.location()).isEqualTo("/error/code");
        });
        assertThat(invalid.findings()).noneMatch(f -> f.rule() == Rule.UNKNOWN_TOOL_WRONG_CODE);
    }

    @Test
    void an_error_code_in_the_legacy_band_is_reported() {
        Report report = audit(new ScriptedServer().tool("search", SCHEMA,
                args -> Optional.of(error(-32000, "Server error"))));

        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo(Rule.LEGACY_ERROR_CODE);
            assertThat(f.tool()).contains("search");
            assertThat(f.location()).isEqualTo("/error/code");
        });
    }

    @Test
    void a_failure_in_prose_only_has_no_machine_code_once_per_tool() {
        Report report = audit(new ScriptedServer()
                .tool("prose", SCHEMA, args -> Optional.of(isError("that did not work")))
                .tool("coded", SCHEMA, args -> Optional.of(isError("{\"error\":{\"code\":\"VALIDATION_ERROR\"}}"))));

        assertThat(report.findings()).filteredOn(f -> f.rule() == Rule.NO_MACHINE_CODE)
                .singleElement().satisfies(f -> assertThat(f.tool()).contains("prose"));
    }

    @Test
    void a_tool_that_never_answers_is_unanswered_within_the_call_timeout() {
        Report report = audit(new ScriptedServer()
                .tool("hang", SCHEMA, args -> Optional.empty())
                .tool("fine", SCHEMA, args -> Optional.of(isError("{\"code\":\"NOT_FOUND\"}"))),
                Duration.ofMillis(150));

        assertThat(report.findings()).filteredOn(f -> f.rule() == Rule.UNANSWERED)
                .extracting(Finding::tool).containsOnly(Optional.of("hang"));
    }

    @Test
    void an_over_long_argument_that_makes_a_call_grossly_slower_is_slow_on_long_input() {
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        ScriptedServer server = new ScriptedServer().tool("match", SCHEMA, args -> {
            if (args.path("q").asString("").length() > 10_000) {
                clock.advance(Duration.ofSeconds(3)); // what a backtracking regex does to 64 KiB
            }
            return Optional.of(isError("{\"code\":\"NOT_FOUND\"}"));
        });

        Report report = Audit.custom().target(server.target()).clock(clock).sleeper(clock::advance).rate(10_000)
                .build().run();

        assertThat(report.findings()).filteredOn(f -> f.rule() == Rule.SLOW_ON_LONG_INPUT).singleElement()
                .satisfies(f -> {
                    assertThat(f.tool()).contains("match");
                    assertThat(f.probe()).isEqualTo("property 'q' 64 KiB long");
                });
    }

    @Test
    void answers_differing_for_an_unknown_account_and_a_wrong_password_are_user_enumeration() {
        String schema = "{\"type\":\"object\",\"properties\":{\"username\":{\"type\":\"string\"},"
                + "\"password\":{\"type\":\"string\"}},\"required\":[\"username\",\"password\"]}";
        Report report = audit(new ScriptedServer().tool("login", schema, args -> Optional.of(
                "admin".equals(args.path("username").asString(""))
                        ? isError("{\"code\":\"PERMISSION_DENIED\",\"message\":\"wrong password\"}")
                        : isError("{\"code\":\"NOT_FOUND\",\"message\":\"no such user\"}"))));

        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo(Rule.USER_ENUMERATION);
            assertThat(f.tool()).contains("login");
        });
    }

    @Test
    void the_same_answer_for_both_is_no_user_enumeration() {
        String schema = "{\"type\":\"object\",\"properties\":{\"email\":{\"type\":\"string\"},"
                + "\"password\":{\"type\":\"string\"}},\"required\":[\"email\",\"password\"]}";
        Report report = audit(new ScriptedServer().tool("sign_in", schema, args -> Optional.of(
                isError("{\"code\":\"PERMISSION_DENIED\",\"message\":\"invalid credentials\"}"))));

        assertThat(report.findings()).noneMatch(f -> f.rule() == Rule.USER_ENUMERATION);
    }
}
