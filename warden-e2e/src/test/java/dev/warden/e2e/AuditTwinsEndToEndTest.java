package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.e2e.TwinJudge.TwinClass;
import dev.warden.e2e.TwinJudge.Verdict;
import dev.warden.e2e.TwinRuns.Audit;
import dev.warden.e2e.TwinRuns.Kind;
import dev.warden.e2e.TwinRuns.Language;
import dev.warden.e2e.TwinRuns.Variant;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * Issue 35's acceptance, judged by the rules docs/audit-twins.md fixed before the first trial: the
 * real {@code warden audit --allow-destructive} on vulnerable and safe twin servers of our own making
 * (JavaScript on the official TypeScript SDK and Python's standard library: the development set;
 * Java on the JDK with Jackson and H2: held out), one class per tool or server. Every vulnerable twin found
 * with its rule and CWE, no finding of a class on its safe twin, the canaries harmless by the twins'
 * own logs, no planted value in any report. The table is printed, development set and held-out set apart.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuditTwinsEndToEndTest {

    /** What the twins plant (database tokens, a file above the base, notes, an admin's contact, the keys). */
    private static final List<String> PLANTED = List.of("cnry_file_js_4d7e21", "cnry_file_py_93c0ab",
            "cnry_file_java_b6e04f", "cnry_tok_js_8a31f0", "cnry_tok_js_c2d95e", "cnry_tok_py_1e77d2",
            "cnry_tok_py_50fa9b", "cnry_tok_java_2f8c61", "cnry_tok_java_d94a07", "cnry_note_alice_71b4",
            "cnry_note_bob_9e0a", "dana.whitfield@acme-widgets.com", "628 241 7730", "twin-key-alice-3f9a71",
            "twin-key-bob-8c2d44", "root:x:0:0");
    /** What a stdio twin writes in its work folder itself; anything else there was written by a canary. */
    private static final Set<String> OWN_FILES = Set.of("twin-log.jsonl",
            "srv/var/lib/acme/corpus/archive/2024/q3/reports/summary.txt",
            "srv/var/lib/acme/corpus/archive/2024/credentials.txt");
    private static final Set<String> LOOPBACK = Set.of("127.0.0.1", "localhost", "[::1]", "::1");

    private final Map<Kind, Map<Language, Map<Variant, Audit>>> audits = new EnumMap<>(Kind.class);
    private Map<String, Long> twinSourcesBefore;

    @BeforeAll
    void auditEveryTwin() throws Exception {
        twinSourcesBefore = twinSources();
        List<Future<Audit>> running = new ArrayList<>();
        // A few at a time: each audit is two processes, and the machine is shared.
        try (ExecutorService pool = Executors.newFixedThreadPool(3)) {
            for (Kind kind : Kind.values()) {
                for (Language language : Language.values()) {
                    for (Variant variant : Variant.values()) {
                        running.add(pool.submit(() -> TwinRuns.audit(language, variant, kind)));
                    }
                }
            }
        }
        for (Future<Audit> future : running) {
            Audit audit = future.get();
            audits.computeIfAbsent(audit.kind(), k -> new EnumMap<>(Language.class))
                    .computeIfAbsent(audit.language(), l -> new EnumMap<>(Variant.class)).put(audit.variant(), audit);
        }
        System.out.println("Audit twins, development set (JavaScript, Python):\n"
                + TwinJudge.table(List.of(Language.JAVASCRIPT, Language.PYTHON), audits)
                + "\n\nAudit twins, held out (Java):\n" + TwinJudge.table(List.of(Language.JAVA), audits));
        allAudits().filter(Audit::audited).forEach(a -> System.out.println(a.language() + " " + a.variant() + " "
                + a.kind() + ": " + a.report().orElseThrow().path("requests") + " requests in "
                + a.report().orElseThrow().path("tookMs") + " ms, "
                + a.report().orElseThrow().path("coverage").path("summary").asString("")));
        allAudits().filter(a -> !a.audited()).forEach(a -> System.out.println("not audited: " + a.language() + " "
                + a.variant() + " " + a.kind() + " exit " + a.result().exitCode() + "\n" + a.result().stderr()));
    }

    private Stream<Audit> allAudits() {
        return audits.values().stream().flatMap(m -> m.values().stream()).flatMap(m -> m.values().stream());
    }

    private List<String> cells(boolean heldOut, Variant variant) {
        List<String> failing = new ArrayList<>();
        for (TwinClass twinClass : TwinClass.values()) {
            for (Language language : Language.values()) {
                if (language.heldOut != heldOut) {
                    continue;
                }
                Verdict verdict = TwinJudge.verdict(twinClass, audits.get(twinClass.kind).get(language).get(variant));
                if (!verdict.passes()) {
                    failing.add(twinClass.label + " / " + language.label + " " + variant.name().toLowerCase(Locale.ROOT) + ": "
                            + verdict.label);
                }
            }
        }
        return failing;
    }

    @Test
    void everyVulnerableTwinOfTheDevelopmentSetIsFoundWithItsRuleAndCwe() {
        assertThat(cells(false, Variant.VULNERABLE)).isEmpty();
    }

    @Test
    void everyHeldOutVulnerableTwinIsFoundWithItsRuleAndCwe() {
        assertThat(cells(true, Variant.VULNERABLE)).isEmpty();
    }

    @Test
    void noSafeTwinHasAFindingOfItsClass() {
        List<String> failing = new ArrayList<>(cells(false, Variant.SAFE));
        failing.addAll(cells(true, Variant.SAFE));
        assertThat(failing).isEmpty();
    }

    @Test
    void theCanariesStayedHarmless() throws IOException {
        // No fetch beyond loopback, by each twin's log of what it was asked to fetch (a value without a
        // host, such as a bare marker, reaches no address).
        allAudits().flatMap(a -> logged(a.work(), "fetch").stream()).map(AuditTwinsEndToEndTest::host)
                .flatMap(Optional::stream).forEach(host -> assertThat(LOOPBACK).as("fetched from " + host).contains(host));
        // No file written in the twins' sources, nor in a stdio twin's work folder but its own.
        assertThat(twinSources()).isEqualTo(twinSourcesBefore);
        for (Audit audit : allAudits().filter(a -> a.kind() == Kind.STDIO).toList()) {
            try (Stream<Path> files = Files.walk(audit.work())) {
                assertThat(files.filter(Files::isRegularFile).map(f -> audit.work().relativize(f).toString()))
                        .as(audit.language() + " " + audit.variant()).allMatch(OWN_FILES::contains);
            }
        }
    }

    @Test
    void noReportCarriesAPlantedValue() {
        allAudits().forEach(audit -> {
            for (String planted : PLANTED) {
                assertThat(audit.result().stdout()).as(audit.language() + " " + audit.variant() + " " + audit.kind())
                        .doesNotContain(planted);
                assertThat(audit.result().stderr()).doesNotContain(planted);
            }
        });
    }

    private static Optional<String> host(String url) {
        try {
            return Optional.ofNullable(new URI(url).getHost());
        } catch (URISyntaxException e) {
            // Not a URI to Java, yet a lenient client may still connect: the authority as written.
            int start = url.indexOf("://");
            if (start < 0) {
                return Optional.empty();
            }
            String authority = url.substring(start + 3).split("[/?#]", 2)[0];
            String host = authority.substring(authority.lastIndexOf('@') + 1);
            return Optional.of(host.startsWith("[") ? host.substring(0, host.indexOf(']') + 1) : host.split(":", 2)[0]);
        }
    }

    private static List<String> logged(Path work, String key) {
        Path log = work.resolve("twin-log.jsonl");
        if (!Files.exists(log)) {
            return List.of();
        }
        try (Stream<String> lines = Files.lines(log)) {
            return lines.map(line -> Json.mapper().readTree(line)).filter(n -> n.has(key))
                    .map(n -> n.get(key)).map(JsonNode::asString).toList();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Every file under the twins' folders with its size and time: a canary that writes there shows. */
    private static Map<String, Long> twinSources() throws IOException {
        Map<String, Long> files = new TreeMap<>();
        for (Path root : List.of(TwinRuns.TWINS, TwinRuns.JS_TWINS)) {
            try (Stream<Path> walk = Files.walk(root)) {
                for (Path file : walk.filter(Files::isRegularFile).toList()) {
                    files.put(file.toString(), Files.size(file) * 31 + Files.getLastModifiedTime(file).toMillis());
                }
            }
        }
        return files;
    }
}
