package dev.warden.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A slow call is cancelled once started: it must get no answer, and the server must keep answering. */
class AuditCancellationTest {

    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"seconds\":{\"type\":\"integer\","
            + "\"maximum\":30}},\"required\":[\"seconds\"]}";

    @Test
    void a_cancelled_call_that_is_answered_anyway_works_after_cancel() {
        ScriptedServer server = new ScriptedServer().answersCancelled()
                .tool("sleep", SCHEMA, args -> Optional.empty());

        Report report = Audit.custom().target(server.target()).callTimeout(Duration.ofMillis(400)).rate(10_000)
                .build().run();

        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo(Rule.WORKS_AFTER_CANCEL);
            assertThat(f.tool()).contains("sleep");
        });
    }

    @Test
    void without_a_slow_tool_the_skip_says_cancellation_was_not_probed() {
        ScriptedServer server = new ScriptedServer().tool("lookup", SCHEMA,
                args -> Optional.of(ScriptedServer.isError("{\"code\":\"NOT_FOUND\"}")));

        Report report = Audit.custom().target(server.target()).rate(10_000).build().run();

        assertThat(report.skipped()).anySatisfy(s -> assertThat(s).startsWith("cancellation: no tool says it takes long"));
    }
}
