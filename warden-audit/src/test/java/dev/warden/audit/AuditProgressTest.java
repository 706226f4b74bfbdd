package dev.warden.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A slow tool is not a hung one: every tools/call carries a progress token, progress for a call
 * restarts its call timeout (up to the maximum call time), and a call that runs out of time is
 * cancelled. Time is a test clock the tool moves while it works; the server answers on the audit's
 * own thread, so no test waits.
 */
class AuditProgressTest {

    private static final String SCHEMA = "{\"type\":\"object\"}";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

    private Report audit(ScriptedServer server) {
        return Audit.custom().target(server.directTarget()).clock(clock).sleeper(clock::advance).rate(10_000)
                .callTimeout(TIMEOUT).build().run();
    }

    private static List<Finding> unanswered(Report report, String tool) {
        return report.findings().stream().filter(f -> f.rule() == Rule.UNANSWERED)
                .filter(f -> f.tool().equals(Optional.of(tool))).toList();
    }

    @Test
    void every_tool_call_carries_a_progress_token() {
        ScriptedServer server = new ScriptedServer()
                .tool("lookup", SCHEMA, args -> Optional.of(ScriptedServer.isError("{\"code\":\"NOT_FOUND\"}")));

        audit(server);

        assertThat(server.progressTokens()).isNotEmpty().allSatisfy(token ->
                assertThat(token.isString() || token.isNumber()).as("progressToken " + token).isTrue());
    }

    @Test
    void a_call_that_reports_progress_may_run_past_the_call_timeout() {
        ScriptedServer server = new ScriptedServer().reportingTool("work", SCHEMA, (args, progress) -> {
            for (int i = 0; i < 3; i++) {
                clock.advance(Duration.ofSeconds(8));
                progress.run();
            }
            clock.advance(Duration.ofSeconds(8)); // 32 s in all, never 10 s without a word
            return Optional.of(ScriptedServer.result("{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}"));
        });

        Report report = audit(server);

        assertThat(unanswered(report, "work")).isEmpty();
        assertThat(server.cancelled()).isEmpty();
    }

    @Test
    void a_call_that_answers_after_the_call_timeout_without_progress_is_unanswered() {
        ScriptedServer server = new ScriptedServer().reportingTool("work", SCHEMA, (args, progress) -> {
            clock.advance(Duration.ofSeconds(16));
            return Optional.of(ScriptedServer.result("{\"content\":[]}"));
        });

        Report report = audit(server);

        assertThat(unanswered(report, "work")).singleElement()
                .satisfies(f -> assertThat(f.message()).isEqualTo("No answer within 10000 ms (the call timeout)"));
    }

    @Test
    void a_call_with_neither_answer_nor_progress_is_unanswered_and_cancelled() {
        ScriptedServer server = new ScriptedServer().reportingTool("work", SCHEMA, (args, progress) -> {
            clock.advance(Duration.ofSeconds(11));
            return Optional.empty();
        });

        Report report = audit(server);

        assertThat(unanswered(report, "work")).singleElement()
                .satisfies(f -> assertThat(f.message()).isEqualTo("No answer within 10000 ms (the call timeout)"));
        assertThat(server.cancelled()).hasSize(1);
        assertThat(server.progressTokens()).contains(server.cancelled().get(0));
    }

    @Test
    void progress_extends_a_call_no_further_than_the_maximum_call_time() {
        ScriptedServer server = new ScriptedServer().reportingTool("work", SCHEMA, (args, progress) -> {
            for (int i = 0; i < 10; i++) {
                clock.advance(Duration.ofSeconds(9));
                progress.run();
            }
            return Optional.empty();
        });

        Report report = Audit.custom().target(server.directTarget()).clock(clock).sleeper(clock::advance)
                .rate(10_000).callTimeout(TIMEOUT).maxCallTime(Duration.ofSeconds(45)).build().run();

        assertThat(unanswered(report, "work")).singleElement().satisfies(f -> assertThat(f.message())
                .isEqualTo("No answer within 45000 ms (the maximum call time), though it reported progress 10 time(s)"));
        assertThat(server.cancelled()).hasSize(1);
    }

    @Test
    void the_maximum_call_time_is_six_call_timeouts_unless_set_and_never_below_one() {
        Audit audit = Audit.custom().target(new ScriptedServer().target()).callTimeout(TIMEOUT).build();

        assertThat(audit.maxCallTime()).isEqualTo(Duration.ofSeconds(60));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Audit.custom().target(new ScriptedServer().target())
                .callTimeout(TIMEOUT).maxCallTime(Duration.ofSeconds(5)).build())
                .hasMessageContaining("maxCallTime");
    }
}
