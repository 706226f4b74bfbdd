package dev.warden.audit.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.audit.Coverage;
import dev.warden.audit.Report;
import dev.warden.core.json.Json;
import java.time.Duration;
import java.util.Optional;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class JsonReportTest {

    @Test
    void theDocumentHasItsFieldsInAFixedOrder() {
        JsonNode doc = Json.mapper().readTree(ReportFormat.JSON.render(SampleReports.realistic()));

        List<String> names = new ArrayList<>();
        doc.propertyNames().forEach(names::add);
        assertThat(names).containsExactly("schemaVersion", "target", "transport", "server", "grade", "coverage", "counts", "findings",
                "requests", "skipped", "started", "tookMs");
        assertThat(doc.get("schemaVersion").asInt()).isEqualTo(JsonReport.SCHEMA_VERSION);
        assertThat(doc.get("grade").get("letter").asString()).isEqualTo("F");
        assertThat(doc.get("counts").get("high").asInt()).isEqualTo(3);
        assertThat(doc.get("started").asString()).isEqualTo("2026-11-24T12:00:00Z");
        assertThat(doc.get("tookMs").asLong()).isEqualTo(8734);
    }

    @Test
    void aFindingHasRuleSeverityCweToolProbeLocationEvidenceAndRemediation() {
        JsonNode finding = Json.mapper().readTree(ReportFormat.JSON.render(SampleReports.realistic())).get("findings").get(1);

        assertThat(finding.get("ruleId").asString()).isEqualTo("WDN-L001");
        assertThat(finding.get("severity").asString()).isEqualTo("high");
        assertThat(finding.get("cwe").asInt()).isEqualTo(209);
        assertThat(finding.get("tool").asString()).isEqualTo("read_file");
        assertThat(finding.get("location").asString()).isEqualTo("/result/content/0/text");
        assertThat(finding.get("evidence").get("category").asString()).isEqualTo("stack-trace");
        assertThat(finding.get("remediation").asString()).startsWith("Catch failures");
    }

    @Test
    void aServerWideFindingHasNoToolRatherThanANullOne() {
        JsonNode findings = Json.mapper().readTree(ReportFormat.JSON.render(SampleReports.realistic())).get("findings");

        JsonNode banner = null;
        for (JsonNode f : findings) {
            banner = f.get("ruleId").asString().equals("WDN-H004") ? f : banner;
        }
        assertThat(banner).isNotNull();
        assertThat(banner.has("tool")).isFalse();
    }

    @Test
    void aServerThatDidNotInitializeIsLeftOutRatherThanNull() {
        Report report = new Report("stdio: ./broken", Optional.empty(), List.of(), 1, List.of(), Coverage.complete(0),
                SampleReports.STARTED, Duration.ZERO);

        String json = ReportFormat.JSON.render(report);

        assertThat(json).doesNotContain("null", "\"server\"");
    }
}
