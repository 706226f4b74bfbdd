package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A tool whose purpose is to run the SQL its caller writes is no SQL injection: {@code warden audit}
 * against the npm server mcp-sqlite (a raw {@code query(sql)} tool, on a real SQLite file) reports
 * the capability as a note ({@code WDN-X006}), never {@code WDN-X004}. The twins (issue 35) hold
 * lookups only; this is the by-design case, on software nobody here wrote.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuditByDesignToolsEndToEndTest {

    private List<JsonNode> findings;

    @BeforeAll
    void auditMcpSqlite(@TempDir Path work) throws Exception {
        Path db = work.resolve("library.db");
        String server = Processes.NODE_DIR.resolve("node_modules/mcp-sqlite/mcp-sqlite-server.js").toString();
        Processes.Result run = Processes.run(List.of(Processes.LAUNCHER.toString(), "audit", "--format", "json",
                "--fail-on", "none", "--", Processes.NODE, server, db.toString()), Map.of());
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        findings = Json.mapper().readTree(run.stdout()).get("findings").valueStream().toList();
    }

    private List<String> rules(String tool) {
        return findings.stream().filter(f -> tool.equals(f.path("tool").asString("")))
                .map(f -> f.get("ruleId").stringValue()).toList();
    }

    @Test
    void theRawQueryToolIsReportedAsRunningItsCallersSqlNotAsInjection() {
        assertThat(rules("query")).contains("WDN-X006").doesNotContain("WDN-X004");
    }

    @Test
    void noToolOfTheServerIsReportedAsSqlInjection() {
        assertThat(findings).noneMatch(f -> "WDN-X004".equals(f.get("ruleId").stringValue()));
    }
}
