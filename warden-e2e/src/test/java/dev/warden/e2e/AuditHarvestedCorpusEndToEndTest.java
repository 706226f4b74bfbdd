package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Issue 17's recall on what real software printed when it failed: {@code warden audit} against
 * {@code replay-server.mjs --tools SHAPE}, where each sample of the harvested corpus is a tool of its
 * own that answers every call with its sample, in an {@code isError} text, as an object in a
 * JSON-RPC error's {@code data}, and in a log notification. Each tool's schema offers the harvested
 * caller's own arguments, so the audit's baseline call sends what that caller sent, and what it sent
 * may come back. A planted leak is a sample with canaries (values only the server knew): each must
 * be reported on its tool at its baseline, with the sample's category, at the pointer of every string
 * that holds a canary. Through {@code warden wrap} the same tools leak nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuditHarvestedCorpusEndToEndTest {

    enum Shape {
        IS_ERROR("isError"), DATA("data"), LOG("log");

        final String argument;

        Shape(String argument) {
            this.argument = argument;
        }
    }

    private static final String BASELINE = "valid arguments (the baseline)";
    /**
     * Failures without canaries whose baseline answer the audit reports anyway, measured: Java and
     * Rust traces ({@code java-jdbc-column}, {@code rust-file-missing}) and pgjdbc's driver class
     * names ({@code org.postgresql.util.PSQLException}, the {@code java-sdk-pg-*} samples and
     * {@code java-jdbc-column-message}); each is what the audit's rules call a leak, checked by hand.
     */
    private static final int MEASURED_UNPLANTED_REPORTED = 7;

    /** wrap's data directories, one per shape; JUnit deletes them after the class (static: set before @BeforeAll). */
    @TempDir
    static Path dataDirs;

    private final List<JsonNode> samples = new ArrayList<>();
    private final Map<Shape, JsonNode> direct = new EnumMap<>(Shape.class);
    private final Map<Shape, JsonNode> wrapped = new EnumMap<>(Shape.class);

    @BeforeAll
    void auditTheReplayServerInEachShapeDirectAndWrapped() throws Exception {
        for (String line : Files.readAllLines(HarvestedCorpusEndToEndTest.CORPUS)) {
            if (!line.isBlank()) {
                samples.add(Json.mapper().readTree(line));
            }
        }
        Map<Shape, Future<JsonNode>> directRuns = new EnumMap<>(Shape.class);
        Map<Shape, Future<JsonNode>> wrappedRuns = new EnumMap<>(Shape.class);
        // The six audits are independent (each its own server processes, wrap its own data directory):
        // three at a time, as the audit twins run, rather than one after another.
        try (ExecutorService pool = Executors.newFixedThreadPool(3)) {
            for (Shape shape : Shape.values()) {
                List<String> server = List.of(Processes.NODE, Processes.NODE_DIR.resolve("replay-server.mjs").toString(),
                        "--tools", shape.argument, HarvestedCorpusEndToEndTest.CORPUS.toString());
                directRuns.put(shape, pool.submit(() -> audit(server)));
                List<String> wrap = new ArrayList<>(List.of(Processes.LAUNCHER.toString(), "wrap", "--data-dir",
                        dataDirs.resolve(shape.name()).toString(), "--"));
                wrap.addAll(server);
                wrappedRuns.put(shape, pool.submit(() -> audit(wrap)));
            }
        }
        for (Shape shape : Shape.values()) {
            direct.put(shape, directRuns.get(shape).get());
            wrapped.put(shape, wrappedRuns.get(shape).get());
            System.out.println(figures(shape));
        }
    }

    /**
     * The replay server changes nothing, so every tool is called (some sample ids hold words such as
     * "insert" that would keep a careful audit away); the budget covers every probe of 146 tools
     * (about 1,750 requests).
     */
    private static JsonNode audit(List<String> server) throws Exception {
        List<String> command = new ArrayList<>(List.of(Processes.LAUNCHER.toString(), "audit", "--format", "json",
                "--fail-on", "none", "--allow-destructive", "--budget", "5000", "--rate", "1000", "--"));
        command.addAll(server);
        Processes.Result run = Processes.run(command);
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        return Json.mapper().readTree(run.stdout());
    }

    private static boolean planted(JsonNode sample) {
        return !sample.get("canaries").isEmpty();
    }

    /** The category the audit must name: the sample's own; a validation failure leaks through its traceback. */
    private static String expectedCategory(JsonNode sample) {
        String category = sample.get("category").stringValue();
        return Set.of("database", "path", "stack-trace", "topology").contains(category) ? category : "stack-trace";
    }

    /** Where each canary stands in the answer: the pointer of every string of the sample that holds one. */
    private static List<String> expectedLocations(JsonNode sample, Shape shape) {
        JsonNode raw = sample.get("raw");
        if (shape == Shape.IS_ERROR) {
            return List.of("/result/content/0/text"); // the sample's text, or its JSON as text
        }
        String prefix = shape == Shape.DATA ? "/error/data" : "/params/data";
        if (raw.isString()) {
            return List.of(shape == Shape.DATA ? prefix + "/error" : prefix);
        }
        List<String> pointers = new ArrayList<>();
        canaryPointers(raw, prefix, sample.get("canaries"), pointers);
        return pointers;
    }

    private static void canaryPointers(JsonNode node, String pointer, JsonNode canaries, List<String> into) {
        if (node.isString()) {
            if (canaries.valueStream().anyMatch(c -> node.stringValue().contains(c.stringValue()))) {
                into.add(pointer);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                canaryPointers(node.get(i), pointer + "/" + i, canaries, into);
            }
        } else if (node.isObject()) {
            node.properties().forEach(e -> canaryPointers(e.getValue(),
                    pointer + "/" + e.getKey().replace("~", "~0").replace("/", "~1"), canaries, into));
        }
    }

    /** The answer-leak findings (WDN-L001..L008) on the sample's tool at its baseline call. */
    private static List<JsonNode> baselineLeaks(JsonNode report, JsonNode sample) {
        String tool = sample.get("id").stringValue();
        return report.get("findings").valueStream().filter(f -> tool.equals(f.path("tool").asString("")))
                .filter(f -> f.get("ruleId").stringValue().startsWith("WDN-L00"))
                .filter(f -> BASELINE.equals(f.get("probe").stringValue())).toList();
    }

    private boolean reported(JsonNode report, JsonNode sample, Shape shape) {
        List<JsonNode> leaks = baselineLeaks(report, sample);
        List<String> locations = expectedLocations(sample, shape);
        boolean categoryThere = leaks.stream().anyMatch(f -> locations.contains(f.get("location").stringValue())
                && expectedCategory(sample).equals(f.get("evidence").get("category").stringValue()));
        boolean everyLocation = locations.stream().allMatch(l -> leaks.stream()
                .anyMatch(f -> l.equals(f.get("location").stringValue())));
        return categoryThere && everyLocation && !locations.isEmpty();
    }

    private List<String> missed(Shape shape) {
        return samples.stream().filter(AuditHarvestedCorpusEndToEndTest::planted)
                .filter(s -> !reported(direct.get(shape), s, shape)).map(s -> s.get("id").stringValue()).toList();
    }

    private List<String> unplantedReported(Shape shape) {
        return samples.stream().filter(s -> !planted(s) && !s.get("benign").asBoolean())
                .filter(s -> !baselineLeaks(direct.get(shape), s).isEmpty()).map(s -> s.get("id").stringValue())
                .toList();
    }

    private long benignReported(Shape shape) {
        return samples.stream().filter(s -> s.get("benign").asBoolean())
                .filter(s -> direct.get(shape).get("findings").valueStream()
                        .anyMatch(f -> s.get("id").stringValue().equals(f.path("tool").asString(""))
                                && f.get("ruleId").stringValue().startsWith("WDN-L")))
                .count();
    }

    private String figures(Shape shape) {
        long planted = samples.stream().filter(AuditHarvestedCorpusEndToEndTest::planted).count();
        long wrappedLeaks = wrapped.get(shape).get("findings").valueStream()
                .filter(f -> f.get("ruleId").stringValue().startsWith("WDN-L00")).count();
        return "audit of the harvested corpus, shape " + shape.argument + ": recall "
                + (planted - missed(shape).size()) + "/" + planted + " planted leaks (missed " + missed(shape)
                + "); benign samples with a leak finding " + benignReported(shape) + "/"
                + samples.stream().filter(s -> s.get("benign").asBoolean()).count()
                + "; failures without canaries reported at their baseline " + unplantedReported(shape).size()
                + " " + unplantedReported(shape) + "; through warden wrap answer leaks " + wrappedLeaks;
    }

    @Test
    void everyToolWasProbed() {
        for (Shape shape : Shape.values()) {
            assertThat(direct.get(shape).get("skipped").valueStream().map(JsonNode::stringValue))
                    .as(shape.argument).noneMatch(s -> s.contains("not called") || s.startsWith("budget"));
        }
    }

    @Test
    void everyPlantedLeakIsReportedWithItsCategoryWhereItStands() {
        for (Shape shape : Shape.values()) {
            assertThat(missed(shape)).as(shape.argument).isEmpty();
        }
    }

    @Test
    void noBenignResultIsReportedAsALeak() {
        for (Shape shape : Shape.values()) {
            assertThat(benignReported(shape)).as(shape.argument).isZero();
        }
    }

    @Test
    void failuresWithoutCanariesAreReportedNoMoreOftenThanMeasured() {
        for (Shape shape : Shape.values()) {
            assertThat(unplantedReported(shape)).as(shape.argument).hasSizeLessThanOrEqualTo(MEASURED_UNPLANTED_REPORTED);
        }
    }

    /** Through {@code warden wrap} nothing leaks, and nothing hostile comes back: no WDN-L001..L008. */
    @Test
    void throughWardenWrapNoAnswerLeaks() {
        for (Shape shape : Shape.values()) {
            assertThat(wrapped.get(shape).get("findings").valueStream().map(f -> f.get("ruleId").stringValue()))
                    .as(shape.argument).noneMatch(id -> id.startsWith("WDN-L00"));
        }
    }
}
