package dev.warden.cli;

import dev.warden.core.json.Json;
import dev.warden.core.sanitize.JsonTail;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.cfg.JsonNodeFeature;

/**
 * What {@code warden sanitize} reads, cut into the pieces it sanitizes each as what it is: one JSON
 * document; or lines, where a line that is a JSON value (JSON lines) and the object at the end of a
 * log line are JSON and the lines between are text, sanitized together (a stack trace spans lines);
 * or, when no line carries JSON, the whole input as text, as before.
 */
sealed interface SanitizeInput {

    /** Floats as BigDecimal, so a document written again keeps its numbers' digits. */
    ObjectReader READER = Json.mapper().reader().with(JsonNodeFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    /** Lines of text (each with its line end), sanitized as one text. {@code line} is 1-based. */
    record Text(String text, int line) implements SanitizeInput {
    }

    /** A JSON value: the whole input, or one line; {@code raw} is its text without the line end. */
    record Document(String raw, JsonNode json, String lineEnd, int line) implements SanitizeInput {
    }

    /** A log line ({@code raw}, without its line end) that ends with a JSON object after a text prefix. */
    record LogLine(String raw, JsonTail tail, String lineEnd, int line) implements SanitizeInput {

        /** The object's own text, as it came. */
        String rawJson() {
            return raw.substring(tail.prefix().length(), raw.length() - tail.suffix().length());
        }
    }

    static List<SanitizeInput> of(String input) {
        Optional<JsonNode> whole = document(input);
        if (whole.isPresent()) {
            return List.of(new Document(input, whole.get(), "", 1));
        }
        List<SanitizeInput> pieces = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        int textLine = 1;
        boolean json = false;
        int lineNumber = 0;
        int at = 0;
        while (at < input.length()) {
            lineNumber++;
            int nl = input.indexOf('\n', at);
            int next = nl < 0 ? input.length() : nl + 1;
            int end = nl < 0 ? input.length() : (nl > at && input.charAt(nl - 1) == '\r' ? nl - 1 : nl);
            String line = input.substring(at, end);
            String lineEnd = input.substring(end, next);
            SanitizeInput piece = jsonLine(line, lineEnd, lineNumber);
            if (piece == null) {
                if (text.isEmpty()) {
                    textLine = lineNumber;
                }
                text.append(input, at, next);
            } else {
                json = true;
                if (!text.isEmpty()) {
                    pieces.add(new Text(text.toString(), textLine));
                    text.setLength(0);
                }
                pieces.add(piece);
            }
            at = next;
        }
        if (!json) {
            return List.of(new Text(input, 1));
        }
        if (!text.isEmpty()) {
            pieces.add(new Text(text.toString(), textLine));
        }
        return pieces;
    }

    private static SanitizeInput jsonLine(String line, String lineEnd, int number) {
        Optional<JsonNode> value = document(line);
        if (value.isPresent()) {
            return new Document(line, value.get(), lineEnd, number);
        }
        return JsonTail.of(line).map(tail -> (SanitizeInput) new LogLine(line, tail, lineEnd, number)).orElse(null);
    }

    /** The object or array {@code text} is, whitespace (and a byte order mark) around it allowed; scalars are text. */
    private static Optional<JsonNode> document(String text) {
        String s = text.strip();
        if (s.startsWith("\uFEFF")) {
            s = s.substring(1).strip();
        }
        if (s.length() < 2 || !((s.charAt(0) == '{' && s.endsWith("}")) || (s.charAt(0) == '[' && s.endsWith("]")))) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(READER.readTree(s)).filter(JsonNode::isContainer);
        } catch (JacksonException e) {
            return Optional.empty();
        }
    }
}
