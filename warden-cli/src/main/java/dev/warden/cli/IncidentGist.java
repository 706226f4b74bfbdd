package dev.warden.cli;

import dev.warden.core.incident.Incident;
import dev.warden.core.json.Json;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * One line saying what an incident is about, for {@code warden incidents list}: Warden's reason
 * if it gave one, else the upstream's text (for a JSON text, its first message-like string: the
 * first line of pretty JSON is a lone brace), else the exception; whitespace collapsed, cut.
 */
final class IncidentGist {

    static final int MAX_CHARS = 100;
    /** Keys whose string value says what went wrong, in the words of the usual error shapes. */
    private static final List<String> MESSAGE_KEYS = List.of("message", "msg", "error", "error_description",
            "detail", "details", "description", "reason", "title", "text");
    /** A larger JSON text is not parsed for its gist: its first line will do. */
    private static final int MAX_JSON_CHARS = 256 * 1024;

    private IncidentGist() {
    }

    static String of(Incident incident) {
        String gist = incident.reason()
                .or(() -> incident.original().map(IncidentGist::ofText))
                .or(() -> incident.chain().stream().findFirst()
                        .map(r -> r.type() + r.message().map(m -> ": " + m).orElse("")))
                .orElse("");
        return cut(collapsed(gist));
    }

    /** What a failure text says: a JSON text's first message-like string, else its first line that is not blank. */
    static String ofText(String text) {
        String t = text.strip();
        if (t.length() <= MAX_JSON_CHARS && (t.startsWith("{") || t.startsWith("["))) {
            try {
                JsonNode node = Json.mapper().readTree(t);
                Optional<String> message = message(node, 0).or(() -> firstString(node, 0));
                if (message.isPresent()) {
                    return message.get();
                }
            } catch (RuntimeException e) {
                // not JSON after all: its first line
            }
        }
        return t.lines().filter(line -> !line.isBlank()).findFirst().orElse("");
    }

    /** The first string under a message-like key, in document order. */
    private static Optional<String> message(JsonNode node, int depth) {
        if (depth > 32) {
            return Optional.empty();
        }
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                JsonNode value = field.getValue();
                if (value.isString() && !value.stringValue().isBlank()
                        && MESSAGE_KEYS.contains(field.getKey().toLowerCase(java.util.Locale.ROOT))) {
                    return Optional.of(value.stringValue());
                }
                Optional<String> inner = message(value, depth + 1);
                if (inner.isPresent()) {
                    return inner;
                }
            }
        } else if (node.isArray()) {
            for (JsonNode item : node) {
                Optional<String> inner = message(item, depth + 1);
                if (inner.isPresent()) {
                    return inner;
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<String> firstString(JsonNode node, int depth) {
        if (node.isString() && !node.stringValue().isBlank()) {
            return Optional.of(node.stringValue());
        }
        if (depth > 32) {
            return Optional.empty();
        }
        for (JsonNode child : node) {
            Optional<String> found = firstString(child, depth + 1);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private static String collapsed(String text) {
        StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_CHARS * 4));
        boolean space = false;
        for (int i = 0; i < text.length() && out.length() <= MAX_CHARS; i++) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
                space = !out.isEmpty();
            } else {
                if (space) {
                    out.append(' ');
                    space = false;
                }
                out.append(c);
            }
        }
        return out.toString();
    }

    private static String cut(String text) {
        if (text.length() <= MAX_CHARS) {
            return text;
        }
        int end = MAX_CHARS - 1;
        if (Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end) + "…";
    }
}
