package dev.warden.audit.report;

import dev.warden.audit.Finding;
import dev.warden.audit.Grade;
import dev.warden.audit.Report;
import dev.warden.core.json.Json;
import java.util.Locale;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The machine-readable report. Its shape is a contract: fields are only ever added, and {@link
 * #SCHEMA_VERSION} goes up when one changes meaning or goes away. An absent server or tool is left
 * out rather than written as null.
 */
final class JsonReport {

    /** The version of this document's shape. */
    static final int SCHEMA_VERSION = 1;

    private JsonReport() {
    }

    static String render(Report report) {
        return Json.mapper().writer().with(SerializationFeature.INDENT_OUTPUT).writeValueAsString(tree(report)) + "\n";
    }

    static ObjectNode tree(Report report) {
        ObjectNode root = Json.object();
        root.put("schemaVersion", SCHEMA_VERSION);
        root.put("target", report.target());
        report.server().ifPresent(s -> root.putObject("server").put("name", s.name()).put("version", s.version()));
        Grade grade = report.grade();
        root.putObject("grade").put("letter", grade.letter()).put("score", grade.score()).put("formula", Grade.FORMULA);
        ObjectNode counts = root.putObject("counts");
        Counts.bySeverity(report).forEach((severity, n) -> counts.put(severity.name().toLowerCase(Locale.ROOT), n));
        ArrayNode findings = root.putArray("findings");
        for (Finding f : report.findings()) {
            findings.add(finding(f));
        }
        root.put("requests", report.requests());
        ArrayNode skipped = root.putArray("skipped");
        report.skipped().forEach(skipped::add);
        root.put("started", report.started().toString());
        root.put("tookMs", report.took().toMillis());
        return root;
    }

    private static ObjectNode finding(Finding f) {
        ObjectNode node = Json.object();
        node.put("ruleId", f.rule().id());
        node.put("severity", f.severity().name().toLowerCase(Locale.ROOT));
        node.put("cwe", f.rule().cwe());
        node.put("title", f.rule().title());
        f.tool().ifPresent(t -> node.put("tool", t));
        node.put("probe", f.probe());
        node.put("location", f.location());
        node.put("message", f.message());
        f.evidence().ifPresent(e -> node.putObject("evidence")
                .put("category", e.category()).put("fingerprint", e.fingerprint()).put("length", e.length()));
        node.put("remediation", f.rule().remediation());
        return node;
    }
}
