package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * {@code warden audit} goes on after a stdio server crashes: {@code leaky-server.mjs}'s {@code crash}
 * tool exits the process (status 3); the crash is reported once, the server is started again, and
 * the tools listed after {@code crash} are still probed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuditCrashEndToEndTest {

    private JsonNode report;

    @BeforeAll
    void auditTheLeakyServer() throws Exception {
        Processes.Result audited = Processes.run(List.of(Processes.LAUNCHER.toString(), "audit", "--format", "json",
                "--fail-on", "none", "--timeout", "2s", "--rate", "1000", "--", Processes.NODE,
                Processes.NODE_DIR.resolve("leaky-server.mjs").toString()));
        assertThat(audited.exitCode()).as(audited.stderr()).isZero();
        report = Json.mapper().readTree(audited.stdout());
    }

    private List<JsonNode> findings(String tool, String rule) {
        return report.get("findings").valueStream().filter(f -> tool.equals(f.path("tool").asString("")))
                .filter(f -> rule.equals(f.path("ruleId").asString(""))).toList();
    }

    @Test
    void theCrashIsReportedOnceWithTheExitStatus() {
        assertThat(findings("crash", "WDN-S005")).singleElement()
                .satisfies(f -> assertThat(f.get("message").asString()).contains("exited (exit status 3)"));
        assertThat(report.get("findings").valueStream().filter(f -> "crash".equals(f.path("tool").asString(""))))
                .hasSize(1);
    }

    @Test
    void theToolsListedAfterTheCrashAreStillProbed() {
        // hang never answers; wrong_id answers with an id nobody sent: both listed after crash.
        assertThat(findings("hang", "WDN-S005")).singleElement()
                .satisfies(f -> assertThat(f.get("message").asString()).startsWith("No answer within 2000 ms"));
        assertThat(findings("wrong_id", "WDN-S005")).hasSize(1);
    }

    @Test
    void theReportSaysTheServerWasStartedAgain() {
        assertThat(report.get("skipped").valueStream().map(JsonNode::asString))
                .anySatisfy(s -> assertThat(s).startsWith("relaunch 1: the server stopped after: tools/call crash"));
    }
}
