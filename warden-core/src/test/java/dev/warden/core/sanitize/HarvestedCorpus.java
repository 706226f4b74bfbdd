package dev.warden.core.sanitize;

import dev.warden.core.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The corpus harvested from real software by {@code scripts/harvest-corpus}
 * (src/test/resources/harvested-corpus, README there), and what a sanitized output of one of its
 * samples must satisfy (issue 14's acceptance): no canary, the caller's identifiers kept, the
 * actionable pointer and message kept, JSON still JSON, a benign text unchanged.
 */
final class HarvestedCorpus {

    /** How deep JSON inside JSON strings is decoded when looking for what came out. */
    private static final int MAX_DECODE_DEPTH = 4;

    record Actionable(String pointer, String message) {
    }

    record Sample(String id, String source, String category, JsonNode caller, JsonNode raw, List<String> canaries,
            List<String> keep, Optional<Actionable> actionable, boolean benign) {

        /** The text as it was emitted: the raw string, or the JSON value's serialization. */
        String text() {
            return raw.isString() ? raw.stringValue() : Json.mapper().writeValueAsString(raw);
        }

        /** Whether what was emitted is a JSON object or array (as a value, or as a text that parses). */
        boolean json() {
            return raw.isContainer() || parsesAsContainer(text());
        }
    }

    /** What one output of one sample satisfies. */
    record Verdict(List<String> leakedCanaries, List<String> lostKeeps, boolean actionableKept, boolean validJson,
            boolean benignIdentical) {

        boolean passes() {
            return leakedCanaries.isEmpty() && lostKeeps.isEmpty() && actionableKept && validJson && benignIdentical;
        }
    }

    private HarvestedCorpus() {
    }

    static List<Sample> load() {
        try (InputStream in = HarvestedCorpus.class.getResourceAsStream("/harvested-corpus/harvested.jsonl")) {
            if (in == null) {
                throw new IllegalStateException("missing harvested-corpus/harvested.jsonl");
            }
            List<Sample> out = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    out.add(parse(Json.mapper().readTree(line)));
                }
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Sample parse(JsonNode node) {
        List<String> canaries = new ArrayList<>();
        node.get("canaries").forEach(c -> canaries.add(c.stringValue()));
        List<String> keep = new ArrayList<>();
        node.get("keep").forEach(k -> keep.add(k.stringValue()));
        JsonNode a = node.get("actionable");
        Optional<Actionable> actionable = a == null ? Optional.empty()
                : Optional.of(new Actionable(a.get("pointer").stringValue(), a.get("message").stringValue()));
        return new Sample(node.get("id").stringValue(), node.get("source").stringValue(),
                node.get("category").stringValue(), node.get("caller"), node.get("raw"), List.copyOf(canaries),
                List.copyOf(keep), actionable, node.get("benign").asBoolean());
    }

    /** Judges a sanitized output of {@code sample} (the text that {@code warden sanitize} printed). */
    static Verdict judge(Sample sample, String output) {
        String seen = visibleText(output);
        String lower = seen.toLowerCase(Locale.ROOT);
        List<String> leaked = sample.canaries().stream().filter(c -> lower.contains(c.toLowerCase(Locale.ROOT)))
                .toList();
        List<String> lost = sample.keep().stream().filter(k -> !seen.contains(k)).toList();
        boolean actionable = sample.actionable()
                .map(a -> seen.contains(a.pointer()) && seen.contains(a.message())).orElse(true);
        boolean validJson = !sample.json() || parsesAsContainer(output);
        boolean benign = !sample.benign() || output.equals(sample.text());
        return new Verdict(leaked, lost, actionable, validJson, benign);
    }

    /**
     * Everything a reader of {@code output} sees: the text, and where it is JSON, every string in
     * it, decoded again where a string is JSON itself (so a double-encoded canary is still found).
     */
    static String visibleText(String output) {
        StringBuilder sb = new StringBuilder(output);
        decodeInto(output, sb, 0);
        return sb.toString();
    }

    private static void decodeInto(String text, StringBuilder sb, int depth) {
        if (depth >= MAX_DECODE_DEPTH) {
            return;
        }
        String t = text.strip();
        if (t.isEmpty() || "{[\"".indexOf(t.charAt(0)) < 0) {
            return;
        }
        try {
            strings(Json.mapper().readTree(t), sb, depth);
        } catch (JacksonException e) {
            // not JSON: the text itself is already in sb
        }
    }

    private static void strings(JsonNode node, StringBuilder sb, int depth) {
        if (node.isString()) {
            sb.append('\n').append(node.stringValue());
            decodeInto(node.stringValue(), sb, depth + 1);
        } else if (node.isObject()) {
            node.properties().forEach(e -> {
                sb.append('\n').append(e.getKey());
                strings(e.getValue(), sb, depth);
            });
        } else if (node.isArray()) {
            node.forEach(n -> strings(n, sb, depth));
        }
    }

    static boolean parsesAsContainer(String text) {
        String t = text.strip();
        if (t.isEmpty() || (t.charAt(0) != '{' && t.charAt(0) != '[')) {
            return false;
        }
        try {
            return Json.mapper().readTree(t).isContainer();
        } catch (JacksonException e) {
            return false;
        }
    }
}
