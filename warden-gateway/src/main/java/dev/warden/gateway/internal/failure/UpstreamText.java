package dev.warden.gateway.internal.failure;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.failure.Classifier;
import dev.warden.core.json.Json;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * An upstream's failure text made readable before anything reads it: decoded once when encoded
 * twice, without the SDK's prefixes, its text blocks joined. Nothing here sanitizes: the text
 * stays untrusted.
 */
public final class UpstreamText {

    private UpstreamText() {
    }

    /**
     * Error text some servers encode twice ({@code "\"Error: …\""}) is decoded once; anything else
     * is left as it is.
     */
    static String decodedOnce(String text) {
        String t = text.strip();
        if (t.length() >= 2 && t.charAt(0) == '"' && t.charAt(t.length() - 1) == '"') {
            try {
                JsonNode inner = Json.mapper().readTree(t);
                if (inner != null && inner.isString()) {
                    return inner.stringValue();
                }
            } catch (RuntimeException e) {
                return text;
            }
        }
        return text;
    }

    /**
     * The TypeScript SDK prefixes error texts with {@code "MCP error <code>: "}, sometimes twice;
     * the code is carried properly already, so the prefixes go.
     */
    public static String withoutSdkPrefix(String text) {
        String t = text;
        while (t.startsWith("MCP error ")) {
            int i = "MCP error ".length();
            if (i < t.length() && t.charAt(i) == '-') {
                i++;
            }
            int digits = i;
            while (i < t.length() && Character.isDigit(t.charAt(i))) {
                i++;
            }
            if (i == digits || !t.startsWith(": ", i)) {
                break;
            }
            t = t.substring(i + 2);
        }
        return t;
    }

    /** The text blocks of an {@code isError} result, joined. */
    static String textBlocks(JsonNode result) {
        StringBuilder b = new StringBuilder();
        for (JsonNode block : result.path("content")) {
            if ("text".equals(block.path("type").asString("")) && block.path("text").isString()) {
                if (!b.isEmpty()) {
                    b.append('\n');
                }
                b.append(block.path("text").stringValue());
            }
        }
        return b.toString();
    }

    /** An {@code isError} result's content blocks that are not text (images, audio, resources, links), at most 16. */
    static List<JsonNode> otherBlocks(JsonNode result) {
        List<JsonNode> other = new ArrayList<>();
        for (JsonNode block : result.path("content")) {
            if (!"text".equals(block.path("type").asString("")) && other.size() < 16) {
                other.add(block);
            }
        }
        return other;
    }

    /** The text of an {@code isError} result: its text blocks, joined; its structured content if it has none. */
    static String errorText(JsonNode result) {
        String text = textBlocks(result);
        return text.isEmpty() && result.has("structuredContent") ? result.get("structuredContent").toString() : text;
    }

    /** The text a model reads: the server's text, then what its structured part adds. */
    static String joined(String text, Optional<String> data) {
        if (data.isEmpty() || data.get().isBlank() || text.contains(data.get())) {
            return text;
        }
        return text.isBlank() ? data.get() : text + "\n" + data.get();
    }

    /** The string leaves of a value, one per line (bounded), for reading a code from its words. */
    static String leaves(JsonNode node) {
        StringBuilder b = new StringBuilder();
        ArrayDeque<JsonNode> todo = new ArrayDeque<>();
        todo.push(node);
        int seen = 0;
        while (!todo.isEmpty() && b.length() < Classifier.READ_CHARS && seen++ < 4096) {
            JsonNode n = todo.pop();
            if (n.isString()) {
                b.append(n.stringValue()).append('\n');
            } else if (n.isContainer()) {
                List<JsonNode> children = new ArrayList<>();
                n.forEach(children::add);
                for (int i = children.size() - 1; i >= 0; i--) {
                    todo.push(children.get(i));
                }
            }
        }
        return b.toString();
    }

    /**
     * The code of a Warden error object ({@code {"error":{"code":"NOT_FOUND","message":…}}}), if
     * the text is one: another Warden upstream already decided it.
     */
    static Optional<ErrorCode> declaredCode(String text) {
        String t = text.strip();
        if (!t.startsWith("{\"error\"") || t.length() > 64 * 1024) {
            return Optional.empty();
        }
        try {
            JsonNode error = Json.mapper().readTree(t).path("error");
            String code = error.path("code").asString("");
            if (!error.path("message").isString()) {
                return Optional.empty();
            }
            return Classifier.declared(code);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }
}
