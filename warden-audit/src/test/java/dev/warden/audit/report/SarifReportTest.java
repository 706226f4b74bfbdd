package dev.warden.audit.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.audit.Finding;
import dev.warden.audit.Report;
import dev.warden.audit.Rule;
import dev.warden.core.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class SarifReportTest {

    private static JsonNode run(Report report) {
        JsonNode log = Json.mapper().readTree(ReportFormat.SARIF.render(report));
        assertThat(log.get("version").asString()).isEqualTo("2.1.0");
        return log.get("runs").get(0);
    }

    @Test
    void theDriverIsWardenAuditAndListsEveryRuleWithItsCwe() {
        JsonNode driver = run(SampleReports.empty()).get("tool").get("driver");

        assertThat(driver.get("name").asString()).isEqualTo("warden audit");
        assertThat(driver.get("rules")).hasSize(Rule.values().length);
        JsonNode first = driver.get("rules").get(0);
        assertThat(first.get("id").asString()).isEqualTo("WDN-L001");
        assertThat(first.get("name").asString()).isEqualTo("LeakStackTrace");
        assertThat(first.get("help").get("text").asString()).isEqualTo(Rule.LEAK_STACK_TRACE.remediation());
        assertThat(first.get("properties").get("tags").toString()).contains("\"security\"", "\"CWE-209\"");
        assertThat(first.get("properties").get("cwe").asString()).isEqualTo("CWE-209");
    }

    @Test
    void everyResultHasItsLevelEvenWhereItIsTheSchemasDefault() {
        JsonNode results = run(SampleReports.everyRule()).get("results");

        List<String> levels = new ArrayList<>();
        results.forEach(r -> levels.add(r.get("ruleId").asString() + "=" + r.get("level").asString()));
        assertThat(levels).contains("WDN-L001=error", "WDN-L003=warning", "WDN-L007=note");
    }

    @Test
    void aResultIsLocatedLogicallyAtItsToolOnItsServer() {
        JsonNode result = run(SampleReports.realistic()).get("results").get(0);

        JsonNode where = result.get("locations").get(0).get("logicalLocations").get(0);
        assertThat(where.get("kind").asString()).isEqualTo("function");
        assertThat(where.get("fullyQualifiedName").asString()).isEqualTo("files-and-db/send_report");
        assertThat(result.get("ruleIndex").asInt()).isEqualTo(Rule.TOOL_POISONING.ordinal());
    }

    @Test
    void aResultCarriesProbeLocationAndEvidenceAsCategoryAndFingerprint() {
        JsonNode result = run(SampleReports.realistic()).get("results").get(1);

        JsonNode properties = result.get("properties");
        assertThat(properties.get("probe").asString()).isEqualTo("required property 'path' missing");
        assertThat(properties.get("location").asString()).isEqualTo("/result/content/0/text");
        assertThat(properties.get("evidence").get("category").asString()).isEqualTo("stack-trace");
        assertThat(properties.get("evidence").get("fingerprint").asString()).matches("[0-9a-f]{12}");
    }

    @Test
    void theSameFindingHasTheSameFingerprintInTheNextRunAndAnotherLocationAnother() {
        Finding a = new Finding(Rule.LEAK_PATH, Optional.of("read_file"), "p1", "/result/content/0/text", "m1", Optional.empty());
        Finding sameElsewhereWorded = new Finding(Rule.LEAK_PATH, Optional.of("read_file"), "p2", "/result/content/0/text", "m2", Optional.empty());
        Finding otherPlace = new Finding(Rule.LEAK_PATH, Optional.of("read_file"), "p1", "/error/message", "m1", Optional.empty());

        assertThat(SarifReport.fingerprint(a)).isEqualTo(SarifReport.fingerprint(sameElsewhereWorded))
                .isNotEqualTo(SarifReport.fingerprint(otherPlace)).matches("[0-9a-f]{32}");
        assertThat(run(SampleReports.report(List.of(a))).get("results").get(0).get("partialFingerprints")
                .get(SarifReport.FINGERPRINT_KEY).asString()).isEqualTo(SarifReport.fingerprint(a));
    }

    @Test
    void anEmptyReportHasAnEmptyResultsArrayAndASuccessfulInvocation() {
        JsonNode run = run(SampleReports.empty());

        assertThat(run.get("results").isArray()).isTrue();
        assertThat(run.get("results")).isEmpty();
        assertThat(run.get("invocations").get(0).get("executionSuccessful").asBoolean()).isTrue();
    }

    @Test
    void theRunCarriesTheGrade() {
        JsonNode grade = run(SampleReports.realistic()).get("properties").get("grade");

        assertThat(grade.get("letter").asString()).isEqualTo("F");
        assertThat(grade.get("formula").asString()).startsWith("100 - ");
    }

    @Test
    void theSameReportGivesTheSameBytes() {
        assertThat(ReportFormat.SARIF.render(SampleReports.realistic())).isEqualTo(ReportFormat.SARIF.render(SampleReports.realistic()));
    }

    @Test
    void anIncompleteAuditIsAnUnsuccessfulInvocationThatSaysWhyAndCarriesNoScore() {
        JsonNode run = run(SampleReports.incomplete());

        JsonNode invocation = run.get("invocations").get(0);
        assertThat(invocation.get("executionSuccessful").asBoolean()).isFalse();
        assertThat(invocation.get("toolExecutionNotifications").get(0).get("message").get("text").asString())
                .contains("no tool was probed", "pagination loop");
        JsonNode grade = run.get("properties").get("grade");
        assertThat(grade.get("letter").asString()).isEqualTo("incomplete");
        assertThat(grade.has("score")).isFalse();
        assertThat(run.get("results").get(0).get("ruleId").asString()).isEqualTo("WDN-S009");
    }
}
