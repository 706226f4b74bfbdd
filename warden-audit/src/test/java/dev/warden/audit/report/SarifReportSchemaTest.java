package dev.warden.audit.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import dev.warden.audit.Report;
import dev.warden.core.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Every SARIF report is valid against the official SARIF 2.1.0 schema (see resources/sarif/README.md). */
class SarifReportSchemaTest {

    private static final Schema SCHEMA = schema();

    @Test
    void aReportWithAFindingOfEveryRuleIsValid() {
        assertThat(errors(SampleReports.everyRule())).isEmpty();
    }

    @Test
    void aReportWithNoFindingIsValid() {
        assertThat(errors(SampleReports.empty())).isEmpty();
    }

    @Test
    void aReportOfHostileNamesIsValid() {
        assertThat(errors(SampleReports.hostile())).isEmpty();
    }

    @Test
    void anIncompleteAuditIsValid() {
        assertThat(errors(SampleReports.incomplete())).isEmpty();
    }

    @Test
    void theSchemaRejectsWhatIsNotSarif() {
        ObjectNode sarif = (ObjectNode) Json.mapper().readTree(ReportFormat.SARIF.render(SampleReports.realistic()));
        ((ObjectNode) sarif.get("runs").get(0).get("results").get(0)).put("level", "fatal");

        assertThat(SCHEMA.validate(sarif)).isNotEmpty();
    }

    private static List<Error> errors(Report report) {
        JsonNode sarif = Json.mapper().readTree(ReportFormat.SARIF.render(report));
        return SCHEMA.validate(sarif);
    }

    private static Schema schema() {
        try (InputStream in = SarifReportSchemaTest.class.getResourceAsStream("/sarif/sarif-schema-2.1.0.json")) {
            JsonNode node = Json.mapper().readTree(in);
            return SchemaRegistry.withDialect(Dialects.getDraft7()).getSchema(node);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
