package dev.warden.audit.report;

import com.contrastsecurity.sarif.Invocation;
import com.contrastsecurity.sarif.Location;
import com.contrastsecurity.sarif.LogicalLocation;
import com.contrastsecurity.sarif.Message;
import com.contrastsecurity.sarif.Notification;
import com.contrastsecurity.sarif.PartialFingerprints;
import com.contrastsecurity.sarif.PropertyBag;
import com.contrastsecurity.sarif.Result;
import com.contrastsecurity.sarif.Run;
import com.contrastsecurity.sarif.SarifSchema210;
import com.contrastsecurity.sarif.Tool;
import com.contrastsecurity.sarif.ToolComponent;
import dev.warden.audit.Coverage;
import dev.warden.audit.Evidence;
import dev.warden.audit.Finding;
import dev.warden.audit.Grade;
import dev.warden.audit.Report;
import dev.warden.audit.Rule;
import dev.warden.core.json.Json;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Date;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The SARIF 2.1.0 report, built on the java-sarif model (see the parent pom for the choice). One run;
 * the driver lists every rule, so {@code ruleIndex} is stable; each result is located logically, at
 * its tool ({@code server/tool}, kind {@code function}), since a server has no source file to point
 * into; its {@code partialFingerprints} hash rule, tool and location, so a code-scanning view
 * recognises the same finding in the next run.
 */
final class SarifReport {

    static final String SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
    /** The {@code partialFingerprints} key; its suffix changes if the hashed fields ever do. */
    static final String FINGERPRINT_KEY = "wardenFinding/v1";

    private SarifReport() {
    }

    /** Warden's mapper, with property bags' entries in key order so that the same report gives the same bytes. */
    private static final JsonMapper MAPPER = Json.mapper().rebuild()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    static String render(Report report) {
        JsonNode tree = MAPPER.valueToTree(log(report));
        prune(tree);
        ObjectNode run = (ObjectNode) tree.get("runs").get(0);
        // An empty results array says "audited, nothing found"; an absent one would say "not run".
        ArrayNode results = resultsOrEmpty(run);
        run.set("results", results);
        explicitLevels(run, results, report);
        return MAPPER.writer().with(SerializationFeature.INDENT_OUTPUT).writeValueAsString(tree) + "\n";
    }

    /**
     * The model leaves out values equal to the schema's defaults, "warning" among them; SARIF
     * readers that do not apply the defaults would then miss a medium finding's level. Every rule's
     * default level and every result's level is written.
     */
    private static void explicitLevels(ObjectNode run, ArrayNode results, Report report) {
        JsonNode rules = run.get("tool").get("driver").get("rules");
        for (Rule rule : Rule.values()) {
            ObjectNode descriptor = (ObjectNode) rules.get(rule.ordinal());
            ObjectNode configuration = descriptor.has("defaultConfiguration")
                    ? (ObjectNode) descriptor.get("defaultConfiguration") : descriptor.putObject("defaultConfiguration");
            configuration.put("level", rule.severity().sarifLevel());
        }
        for (int i = 0; i < results.size(); i++) {
            ((ObjectNode) results.get(i)).put("level", report.findings().get(i).severity().sarifLevel());
        }
    }

    static SarifSchema210 log(Report report) {
        ToolComponent driver = new ToolComponent()
                .withName("warden audit")
                .withFullName("Warden MCP auditor")
                .withVersion(version())
                // no informationUri: the project has no public address yet, and an invented one could be anyone's
                .withRules(SarifRules.all());
        Date start = Date.from(report.started());
        // An audit that could not probe the server did not succeed: a code-scanning view shows it
        // failed, and why, rather than a clean run.
        Invocation invocation = new Invocation()
                .withExecutionSuccessful(!(report.grade() instanceof Grade.Incomplete))
                .withStartTimeUtc(start)
                .withEndTimeUtc(Date.from(report.started().plus(report.took())));
        if (report.grade() instanceof Grade.Incomplete i) {
            invocation.withToolExecutionNotifications(List.of(new Notification()
                    .withLevel(Notification.Level.ERROR)
                    .withMessage(new Message().withText("Incomplete, not graded: " + i.why()))));
        }
        Run run = new Run()
                .withTool(new Tool().withDriver(driver))
                .withInvocations(List.of(invocation))
                .withResults(results(report))
                .withProperties(runProperties(report));
        return new SarifSchema210()
                .with$schema(URI.create(SCHEMA_URI))
                .withVersion(SarifSchema210.Version._2_1_0)
                .withRuns(List.of(run));
    }

    private static List<Result> results(Report report) {
        String server = report.server().map(Report.ServerInfo::name).orElse("server");
        List<Result> results = new ArrayList<>();
        for (Finding f : report.findings()) {
            LogicalLocation where = f.tool()
                    .map(t -> new LogicalLocation().withName(t).withFullyQualifiedName(server + "/" + t).withKind("function"))
                    .orElseGet(() -> new LogicalLocation().withName(server).withFullyQualifiedName(server).withKind("module"));
            PropertyBag properties = new PropertyBag()
                    .withAdditionalProperty("probe", f.probe())
                    .withAdditionalProperty("location", f.location());
            f.tool().ifPresent(t -> properties.withAdditionalProperty("tool", t));
            f.evidence().ifPresent(e -> properties.withAdditionalProperty("evidence", evidence(e)));
            results.add(new Result()
                    .withRuleId(f.rule().id())
                    .withRuleIndex(f.rule().ordinal())
                    .withLevel(Result.Level.fromValue(f.severity().sarifLevel()))
                    .withMessage(new Message().withText(f.message()))
                    .withLocations(List.of(new Location().withLogicalLocations(new LinkedHashSet<>(Set.of(where)))))
                    .withPartialFingerprints(new PartialFingerprints().withAdditionalProperty(FINGERPRINT_KEY, fingerprint(f)))
                    .withProperties(properties));
        }
        return results;
    }

    private static Map<String, Object> evidence(Evidence e) {
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("category", e.category());
        node.put("fingerprint", e.fingerprint());
        node.put("length", e.length());
        return node;
    }

    private static PropertyBag runProperties(Report report) {
        Grade grade = report.grade();
        Map<String, Object> gradeNode = new LinkedHashMap<>();
        gradeNode.put("letter", grade.label());
        switch (grade) {
            case Grade.Scored s -> gradeNode.put("score", s.score());
            case Grade.Incomplete i -> gradeNode.put("reason", i.why());
        }
        gradeNode.put("formula", Grade.FORMULA);
        Coverage c = report.coverage();
        Map<String, Object> coverage = new LinkedHashMap<>();
        coverage.put("toolsListed", c.listed());
        coverage.put("toolsProbed", c.probed());
        coverage.put("partial", c.partial());
        coverage.put("listing", c.listingWord());
        coverage.put("summary", c.summary());
        PropertyBag properties = new PropertyBag()
                .withAdditionalProperty("target", report.target())
                .withAdditionalProperty("transport", report.transport().id())
                .withAdditionalProperty("grade", gradeNode)
                .withAdditionalProperty("coverage", coverage)
                .withAdditionalProperty("requests", report.requests())
                .withAdditionalProperty("skipped", report.skipped());
        report.server().ifPresent(s -> properties.withAdditionalProperty("server",
                Map.of("name", s.name(), "version", s.version())));
        return properties;
    }

    /**
     * A hash of what makes a finding the same finding in the next run: rule, tool and location (not
     * the message or the evidence, which may change as the leak does).
     */
    static String fingerprint(Finding f) {
        String key = f.rule().id() + "\u0000" + f.tool().orElse("") + "\u0000" + f.location();
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
    }

    static String version() {
        String v = SarifReport.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    /**
     * Drops the empty arrays and objects the generated model initializes every collection with:
     * SARIF reads an empty array as a statement (some must have an element), an absent one as none.
     */
    private static boolean prune(JsonNode node) {
        if (node instanceof ObjectNode object) {
            List<String> empty = new ArrayList<>();
            object.properties().forEach(e -> {
                if (prune(e.getValue())) {
                    empty.add(e.getKey());
                }
            });
            object.remove(empty);
            return object.isEmpty();
        }
        if (node instanceof ArrayNode array) {
            for (int i = array.size() - 1; i >= 0; i--) {
                if (prune(array.get(i))) {
                    array.remove(i);
                }
            }
            return array.isEmpty();
        }
        return false;
    }

    private static ArrayNode resultsOrEmpty(JsonNode run) {
        JsonNode results = run.get("results");
        return results instanceof ArrayNode array ? array : Json.mapper().createArrayNode();
    }
}
