package dev.warden.audit.report;

import dev.warden.audit.Coverage;
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

    /**
     * The version of this document's shape. 2: {@code grade.letter} may be {@code incomplete}, with a
     * {@code reason} and no {@code score}; {@code coverage} added.
     */
    static final int SCHEMA_VERSION = 2;

    private JsonReport() {
    }

    static String render(Report report) {
        return Json.mapper().writer().with(SerializationFeature.INDENT_OUTPUT).writeValueAsString(tree(report)) + "\n";
    }

    static ObjectNode tree(Report report) {
        ObjectNode root = Json.object();
        root.put("schemaVersion", SCHEMA_VERSION);
        root.put("target", report.target());
        root.put("transport", report.transport().id());
        report.server().ifPresent(s -> root.putObject("server").put("name", s.name()).put("version", s.version()));
        Grade grade = report.grade();
        ObjectNode gradeNode = root.putObject("grade").put("letter", grade.label());
        switch (grade) {
            case Grade.Scored s -> gradeNode.put("score", s.score());
            case Grade.Incomplete i -> gradeNode.put("reason", i.why());
        }
        gradeNode.put("formula", Grade.FORMULA);
        root.set("coverage", coverage(report.coverage()));
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

    /** The coverage as {@code toolsListed}, {@code toolsProbed}, {@code partial}, {@code listing} and why. */
    static ObjectNode coverage(Coverage coverage) {
        ObjectNode node = Json.object();
        node.put("toolsListed", coverage.listed());
        node.put("toolsProbed", coverage.probed());
        node.put("partial", coverage.partial());
        node.put("listing", coverage.listingWord());
        ArrayNode unprobed = node.putArray("unprobed");
        coverage.unprobed().forEach(unprobed::add);
        node.put("summary", coverage.summary());
        return node;
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
