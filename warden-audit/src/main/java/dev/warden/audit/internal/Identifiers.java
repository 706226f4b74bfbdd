package dev.warden.audit.internal;

import dev.warden.core.json.Json;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The record identifiers a caller's own answers name: values under id-like keys ({@code id},
 * {@code note_id}, {@code ids: […]}) in a result's structured content or JSON text, else the
 * identifier-like words of its text ({@code n-101}, {@code 42}: a word with a digit). A scan in one
 * pass, bounded, without regular expressions.
 */
public final class Identifiers {

    /** Identifiers kept per answer at most. */
    public static final int MAX = 20;
    private static final int MAX_DEPTH = 6;
    private static final int MAX_TEXT = 64 * 1024;

    private Identifiers() {
    }

    /** The identifiers in a successful {@code tools/call} answer; none in a failure. */
    public static Set<String> in(JsonNode answer) {
        Set<String> ids = new LinkedHashSet<>();
        if (!Crossing.success(answer)) {
            return ids;
        }
        JsonNode result = answer.path("result");
        json(result.path("structuredContent"), ids, 0);
        for (JsonNode content : result.path("content")) {
            String text = content.path("text").asString("");
            Optional<JsonNode> parsed = parse(text);
            if (parsed.isPresent()) {
                json(parsed.get(), ids, 0);
            } else {
                words(text, ids);
            }
        }
        return ids;
    }

    /** A session token in a login's answer: a string under a key that says token or session. */
    public static Optional<String> token(JsonNode answer) {
        if (!Crossing.success(answer)) {
            return Optional.empty();
        }
        JsonNode result = answer.path("result");
        Optional<String> found = token(result.path("structuredContent"), 0);
        for (JsonNode content : result.path("content")) {
            if (found.isEmpty()) {
                found = parse(content.path("text").asString("")).flatMap(j -> token(j, 0));
            }
        }
        return found;
    }

    private static Optional<String> token(JsonNode node, int depth) {
        if (depth > MAX_DEPTH || !node.isContainer()) {
            return Optional.empty();
        }
        for (var field : node.properties()) {
            List<String> words = ToolNames.words(field.getKey());
            if (field.getValue().isString() && words.stream().anyMatch(w -> w.equals("token") || w.equals("session"))) {
                return Optional.of(field.getValue().stringValue());
            }
            Optional<String> inner = token(field.getValue(), depth + 1);
            if (inner.isPresent()) {
                return inner;
            }
        }
        return Optional.empty();
    }

    private static Optional<JsonNode> parse(String text) {
        String t = text.strip();
        if (t.length() > MAX_TEXT || !(t.startsWith("{") || t.startsWith("["))) {
            return Optional.empty();
        }
        try {
            return Optional.of(Json.mapper().readTree(t));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static void json(JsonNode node, Set<String> ids, int depth) {
        if (depth > MAX_DEPTH || ids.size() >= MAX) {
            return;
        }
        if (node.isArray()) {
            node.forEach(element -> json(element, ids, depth + 1));
            return;
        }
        for (var field : node.properties()) {
            List<String> words = ToolNames.words(field.getKey());
            String last = words.isEmpty() ? "" : words.get(words.size() - 1);
            JsonNode value = field.getValue();
            if (Set.of("id", "uuid", "guid").contains(last) && (value.isString() || value.isIntegralNumber())) {
                add(value.asString(""), ids);
            } else if (Set.of("ids", "uuids").contains(last) && value.isArray()) {
                value.forEach(v -> {
                    if (v.isString() || v.isIntegralNumber()) {
                        add(v.asString(""), ids);
                    }
                });
            } else if (value.isContainer()) {
                json(value, ids, depth + 1);
            }
        }
    }

    /** Words of letters, digits, {@code -} and {@code _} that hold a digit: identifiers as prose names them. */
    private static void words(String text, Set<String> ids) {
        int limit = Math.min(text.length(), MAX_TEXT);
        int start = -1;
        boolean digit = false;
        for (int i = 0; i <= limit && ids.size() < MAX; i++) {
            char c = i < limit ? text.charAt(i) : ' ';
            boolean part = c < 128 && (Character.isLetterOrDigit(c) || c == '-' || c == '_');
            if (part) {
                if (start < 0) {
                    start = i;
                    digit = false;
                }
                digit |= Character.isDigit(c);
            } else if (start >= 0) {
                String word = trim(text.substring(start, i));
                if (digit && word.length() >= 1 && word.length() <= 64) {
                    add(word, ids);
                }
                start = -1;
            }
        }
    }

    private static String trim(String word) {
        int a = 0;
        int b = word.length();
        while (a < b && (word.charAt(a) == '-' || word.charAt(a) == '_')) {
            a++;
        }
        while (b > a && (word.charAt(b - 1) == '-' || word.charAt(b - 1) == '_')) {
            b--;
        }
        return word.substring(a, b);
    }

    private static void add(String id, Set<String> ids) {
        if (!id.isEmpty() && id.length() <= 128 && ids.size() < MAX) {
            ids.add(id);
        }
    }
}
