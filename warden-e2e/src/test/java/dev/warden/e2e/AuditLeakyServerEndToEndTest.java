package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * {@code warden audit} from the outside, against {@code leaky-server.mjs} (failures in the styles of
 * Node, Python, Java and Go, written by hand, every byte known): each planted leak is reported with
 * its rule, tool and location; no report format holds a leaked value; {@code --fail-on} sets the
 * exit code.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuditLeakyServerEndToEndTest {

    /** Values leaky-server.mjs plants, any of which in a report would make the report the leak. */
    private static final List<String> CANARIES = List.of("S3cr3tPass", "AKIAIOSFODNN7EXAMPLE",
            "ghp_16C7e42F292c6912E7710c838347Ae178B4a", "hunter2", "sk_live_51H8xYzAbCdEfGhIjKlMnOpQr",
            "db.internal.corp", "users_email_key", "/home/app/src/handlers/user.js", "10.0.3.17");

    private Path reports;
    private Processes.Result audited;
    private JsonNode report;

    private static List<String> audit(String... options) {
        List<String> command = new ArrayList<>(List.of(Processes.LAUNCHER.toString(), "audit"));
        command.addAll(List.of(options));
        command.addAll(List.of("--", Processes.NODE, Processes.NODE_DIR.resolve("leaky-server.mjs").toString()));
        return command;
    }

    @BeforeAll
    void auditTheLeakyServer() throws Exception {
        reports = Files.createTempDirectory("warden-audit-e2e");
        audited = Processes.run(audit("--format", "text,json,sarif,markdown,html", "--out",
                reports.resolve("leaky").toString(), "--fail-on", "high"));
        report = Json.mapper().readTree(Files.readString(reports.resolve("leaky.json")));
    }

    private Set<String> rulesFor(String tool) {
        return report.get("findings").valueStream().filter(f -> tool.equals(f.path("tool").asString("")))
                .map(f -> f.get("ruleId").asString()).collect(Collectors.toSet());
    }

    @Test
    void eachPlantedLeakIsReportedWithItsRuleAndTool() {
        Map<String, Set<String>> expected = Map.of(
                "node_error", Set.of("WDN-L001", "WDN-L002"),
                "python_error", Set.of("WDN-L001", "WDN-L004"),
                "java_error", Set.of("WDN-L001", "WDN-L002", "WDN-L004"),
                "go_error", Set.of("WDN-L001", "WDN-L002", "WDN-L005"),
                "injection", Set.of("WDN-L006"),
                "double_encoded", Set.of("WDN-L003"),
                "log_leak", Set.of("WDN-L002", "WDN-L003", "WDN-L005"),
                "success_with_secret", Set.of("WDN-L002"));
        expected.forEach((tool, rules) -> assertThat(rulesFor(tool)).as(tool).containsAll(rules));
    }

    @Test
    void eachFindingSaysWhereInTheAnswerAndCarriesOnlyAFingerprint() {
        JsonNode leak = report.get("findings").valueStream()
                .filter(f -> "java_error".equals(f.path("tool").asString("")))
                .filter(f -> "WDN-L001".equals(f.get("ruleId").asString())).findFirst().orElseThrow();
        assertThat(leak.get("location").asString()).isEqualTo("/error/data");
        assertThat(leak.get("evidence").get("category").asString()).isEqualTo("stack-trace");
        assertThat(leak.get("evidence").get("fingerprint").asString()).matches("[0-9a-f]{12}");
    }

    @Test
    void noReportFormatHoldsALeakedValue() throws Exception {
        for (String extension : List.of("txt", "json", "sarif", "md", "html")) {
            String written = Files.readString(reports.resolve("leaky." + extension));
            for (String canary : CANARIES) {
                assertThat(written).as(extension + " holds " + canary).doesNotContain(canary);
            }
        }
        for (String canary : CANARIES) {
            assertThat(audited.stderr()).doesNotContain(canary);
        }
    }

    @Test
    void theSarifReportIsSarif210WithARuleForEveryResult() throws Exception {
        JsonNode sarif = Json.mapper().readTree(Files.readString(reports.resolve("leaky.sarif")));
        assertThat(sarif.get("version").asString()).isEqualTo("2.1.0");
        JsonNode run = sarif.get("runs").get(0);
        Set<String> rules = run.get("tool").get("driver").get("rules").valueStream()
                .map(r -> r.get("id").asString()).collect(Collectors.toSet());
        assertThat(run.get("results").valueStream().map(r -> r.get("ruleId").asString())).isNotEmpty()
                .allSatisfy(id -> assertThat(rules).contains(id));
    }

    @Test
    void aHighFindingFailsTheRunAtFailOnHighAndNotAtNone() throws Exception {
        assertThat(audited.exitCode()).isEqualTo(1);
        assertThat(Processes.run(audit("--fail-on", "none", "--format", "json")).exitCode()).isZero();
    }

    @Test
    void throughWardenWrapTheSameServerLeaksNothingInItsAnswers() throws Exception {
        List<String> command = new ArrayList<>(List.of(Processes.LAUNCHER.toString(), "audit", "--format", "json",
                "--fail-on", "none", "--", Processes.LAUNCHER.toString(), "wrap", "--", Processes.NODE,
                Processes.NODE_DIR.resolve("leaky-server.mjs").toString()));

        Processes.Result wrapped = Processes.run(command);

        assertThat(wrapped.exitCode()).isZero();
        JsonNode findings = Json.mapper().readTree(wrapped.stdout()).get("findings");
        // Answer leaks are WDN-L001..L008; WDN-L100 is the wrapper's own operator log on stderr.
        assertThat(findings.valueStream().map(f -> f.get("ruleId").asString()))
                .noneMatch(id -> id.startsWith("WDN-L00"));
        assertThat(findings.valueStream().filter(f -> f.get("ruleId").asString().startsWith("WDN-L")))
                .allSatisfy(f -> assertThat(f.get("location").asString()).isEqualTo("stderr"));
    }

    @Test
    void aDryRunListsTheCallsItWouldMakeAndMakesNone() throws Exception {
        Processes.Result plan = Processes.run(audit("--dry-run"));

        assertThat(plan.exitCode()).isZero();
        assertThat(plan.stdout()).contains("tools/call node_error").contains("tools/call echo");
    }
}
