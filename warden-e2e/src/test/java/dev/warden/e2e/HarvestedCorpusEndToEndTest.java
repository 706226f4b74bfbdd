package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Issue 14's first acceptance through {@code warden wrap}: the corpus harvested from real software
 * ({@code scripts/harvest-corpus}), replayed by an MCP server on the TypeScript SDK
 * ({@code replay-server.mjs}) in every shape a server delivers a failure in, driven by the
 * TypeScript SDK client ({@code corpus-client.mjs}) through one wrap process. On what the client
 * receives (the result or error, and the log notifications of the call): no planted canary, every
 * identifier the caller sent in its SQL, the pointer and message of a validation failure, JSON
 * text still JSON, a benign result identical to the server's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HarvestedCorpusEndToEndTest {

    static final Path CORPUS = Path.of("../warden-core/src/test/resources/harvested-corpus/harvested.jsonl")
            .toAbsolutePath().normalize();
    /** How deep JSON inside JSON strings is decoded when looking for what came out. */
    static final int MAX_DECODE_DEPTH = 4;

    final Map<String, JsonNode> samples = new HashMap<>();
    /** One per call: the sample, the shape and what the client received. */
    final List<JsonNode> calls = new ArrayList<>();

    @BeforeAll
    void replayTheCorpusThroughWrap() throws Exception {
        for (String line : Files.readAllLines(CORPUS)) {
            if (!line.isBlank()) {
                JsonNode sample = Json.mapper().readTree(line);
                samples.put(sample.get("id").stringValue(), sample);
            }
        }
        Path dataDir = Files.createTempDirectory("warden-harvested-e2e");
        Processes.Result run = Processes.run(Processes.node("corpus-client.mjs", CORPUS.toString(),
                Processes.LAUNCHER.toString(), "wrap", "--data-dir", dataDir.toString(), "--", Processes.NODE,
                Processes.NODE_DIR.resolve("replay-server.mjs").toString(), CORPUS.toString()));
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        for (String line : run.stdout().split("\n")) {
            if (!line.isBlank()) {
                calls.add(Json.mapper().readTree(line));
            }
        }
        System.out.print(table());
    }

    JsonNode sampleOf(JsonNode call) {
        return samples.get(call.get("id").stringValue());
    }

    @Test
    void everySampleWasReplayedInEveryShape() {
        long failures = samples.values().stream().filter(s -> !s.get("benign").asBoolean()).count();
        long benign = samples.size() - failures;
        assertThat(calls).hasSize((int) (failures * 6 + benign));
    }

    /**
     * No violations are read from a log notification (it asks the model to fix nothing); canaries,
     * the caller's identifiers and valid JSON hold for logs as for every shape.
     */
    static boolean log(JsonNode call) {
        return call.get("shape").stringValue().equals("log");
    }

    @Test
    void noPlantedCanaryReachesTheClientInAnyShape() {
        assertThat(failing(HarvestedCorpusEndToEndTest::noCanary)).isEmpty();
    }

    @Test
    void everyIdentifierTheCallerSentSurvivesInTheDatabaseErrorAndInALogDuringItsCall() {
        // wrap has one client: a log written while its call is in flight may repeat what it sent
        assertThat(failing(HarvestedCorpusEndToEndTest::keepsCallerIdentifiers)).isEmpty();
    }

    @Test
    void everyStructuredValidationFailureKeepsItsPointerAndMessage() {
        assertThat(failing((sample, call) -> log(call) || keepsActionable(sample, call))).isEmpty();
    }

    @Test
    void everyTextThatWasJsonIsValidJson() {
        assertThat(failing(HarvestedCorpusEndToEndTest::validJson)).isEmpty();
    }

    @Test
    void aBenignResultReachesTheClientIdentical() {
        assertThat(failing(HarvestedCorpusEndToEndTest::benignIdentical)).isEmpty();
    }

    // ---- the criteria ------------------------------------------------------------------------------

    static boolean noCanary(JsonNode sample, JsonNode call) {
        String seen = visible(call).toLowerCase(Locale.ROOT);
        for (JsonNode c : sample.get("canaries")) {
            if (seen.contains(c.stringValue().toLowerCase(Locale.ROOT))) {
                return false;
            }
        }
        return true;
    }

    static boolean keepsCallerIdentifiers(JsonNode sample, JsonNode call) {
        String seen = visible(call);
        for (JsonNode k : sample.get("keep")) {
            if (!seen.contains(k.stringValue())) {
                return false;
            }
        }
        return true;
    }

    static boolean keepsActionable(JsonNode sample, JsonNode call) {
        JsonNode a = sample.get("actionable");
        if (a == null) {
            return true;
        }
        String seen = visible(call);
        return seen.contains(a.get("pointer").stringValue()) && seen.contains(a.get("message").stringValue());
    }

    /** Where the sample was JSON: every text block and every string logged that looks like JSON (starts with { or [) parses. */
    static boolean validJson(JsonNode sample, JsonNode call) {
        JsonNode raw = sample.get("raw");
        if (raw.isString()) {
            String r = raw.stringValue().strip();
            if (r.isEmpty() || "{[".indexOf(r.charAt(0)) < 0) {
                return true; // text that was never JSON: a placeholder such as "[redacted:…]" may start it
            }
        }
        List<String> texts = new ArrayList<>();
        for (JsonNode block : call.at("/outcome/result/content")) {
            if (block.has("text")) {
                texts.add(block.get("text").stringValue());
            }
        }
        for (JsonNode log : call.get("logs")) {
            if (log.get("data").isString()) {
                texts.add(log.get("data").stringValue());
            }
        }
        for (String t : texts) {
            String s = t.strip();
            if (!s.isEmpty() && (s.charAt(0) == '{' || s.charAt(0) == '[')) {
                try {
                    Json.mapper().readTree(s);
                } catch (JacksonException e) {
                    return false;
                }
            }
        }
        return true;
    }

    static boolean benignIdentical(JsonNode sample, JsonNode call) {
        if (!sample.get("benign").asBoolean()) {
            return true;
        }
        JsonNode raw = sample.get("raw");
        String text = raw.isString() ? raw.stringValue() : raw.toString();
        return call.at("/outcome/result").equals(Json.mapper().readTree(
                Json.mapper().writeValueAsString(Map.of("content", List.of(Map.of("type", "text", "text", text))))));
    }

    /** Every string the client received in the call, and inside those that are JSON, their strings. */
    static String visible(JsonNode call) {
        StringBuilder sb = new StringBuilder();
        strings(call.get("outcome"), sb, 0);
        strings(call.get("logs"), sb, 0);
        return sb.toString();
    }

    private static void strings(JsonNode node, StringBuilder sb, int depth) {
        if (node == null) {
            return;
        }
        if (node.isString()) {
            String s = node.stringValue();
            sb.append('\n').append(s);
            String t = s.strip();
            if (depth < MAX_DECODE_DEPTH && !t.isEmpty() && "{[\"".indexOf(t.charAt(0)) >= 0) {
                try {
                    strings(Json.mapper().readTree(t), sb, depth + 1);
                } catch (JacksonException e) {
                    // not JSON: the text itself is in sb
                }
            }
        } else if (node.isObject()) {
            node.properties().forEach(e -> {
                sb.append('\n').append(e.getKey());
                strings(e.getValue(), sb, depth);
            });
        } else if (node.isArray()) {
            node.forEach(n -> strings(n, sb, depth));
        } else {
            sb.append('\n').append(node);
        }
    }

    List<String> failing(BiPredicate<JsonNode, JsonNode> holds) {
        return calls.stream().filter(c -> !holds.test(sampleOf(c), c))
                .map(c -> c.get("id").stringValue() + "/" + c.get("shape").stringValue() + " -> " + c.get("outcome")
                        + " " + c.get("logs"))
                .toList();
    }

    /** Per source, category and shape: calls, canaries leaked, caller identifiers kept, actionable kept, valid JSON, benign identical. */
    String table() {
        Map<String, int[]> rows = new TreeMap<>();
        int[] total = new int[11];
        for (JsonNode call : calls) {
            JsonNode s = sampleOf(call);
            String key = s.get("source").stringValue() + " | " + s.get("category").stringValue() + " | "
                    + call.get("shape").stringValue();
            int[] r = rows.computeIfAbsent(key, k -> new int[11]);
            int[] one = {1, s.get("canaries").isEmpty() ? 0 : 1, noCanary(s, call) ? 0 : 1,
                s.get("keep").isEmpty() ? 0 : 1, !s.get("keep").isEmpty() && keepsCallerIdentifiers(s, call) ? 1 : 0,
                s.has("actionable") ? 1 : 0, s.has("actionable") && keepsActionable(s, call) ? 1 : 0, 1,
                validJson(s, call) ? 1 : 0, s.get("benign").asBoolean() ? 1 : 0,
                s.get("benign").asBoolean() && benignIdentical(s, call) ? 1 : 0};
            for (int i = 0; i < one.length; i++) {
                r[i] += one[i];
                total[i] += one[i];
            }
        }
        StringBuilder sb = new StringBuilder("| source | category | shape | calls | canaries leaked | caller identifiers "
                + "kept | actionable kept | valid JSON | benign identical |\n|---|---|---|---:|---:|---:|---:|---:|---:|\n");
        rows.forEach((k, r) -> sb.append(line(k, r)));
        sb.append(line("total | | ", total));
        return sb.toString();
    }

    private static String line(String key, int[] r) {
        return String.format("| %s | %d | %s | %s | %s | %s | %s |%n", key, r[0], ratio(r[2], r[1]), ratio(r[4], r[3]),
                ratio(r[6], r[5]), ratio(r[8], r[7]), ratio(r[10], r[9]));
    }

    private static String ratio(int passing, int applicable) {
        return applicable == 0 ? "–" : passing + "/" + applicable;
    }
}
