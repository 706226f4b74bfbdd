package dev.warden.audit.internal;

import dev.warden.core.json.Json;
import dev.warden.core.sanitize.JsonFinding;
import dev.warden.core.sanitize.Sanitizer;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The text of a sanitizer finding's span, to fingerprint it: the finding's string found again where
 * its pointers say (through JSON encoded into strings), cleaned as the sanitizer cleans before it
 * scans (its spans count in the cleaned text). The text goes into a fingerprint and nowhere else.
 */
public final class Spans {

    private Spans() {
    }

    public static String of(JsonNode value, JsonFinding finding) {
        Optional<String> text = string(value, finding.pointers(), finding.inKey());
        return text.map(t -> span(Sanitizer.clean(t), finding.finding().start(), finding.finding().end())).orElse("");
    }

    /** The string the finding lies in, cleaned as the sanitizer cleans it (its offsets count there), or "". */
    public static String text(JsonNode value, JsonFinding finding) {
        return string(value, finding.pointers(), finding.inKey()).map(Sanitizer::clean).orElse("");
    }

    /** Up to {@code chars} characters that follow the finding's span in its string (none at its end). */
    public static String after(JsonNode value, JsonFinding finding, int chars) {
        int end = finding.finding().end();
        return span(text(value, finding), end, end + chars);
    }

    public static String span(String text, int start, int end) {
        int s = Math.min(start, text.length());
        return text.substring(s, Math.max(s, Math.min(end, text.length())));
    }

    private static Optional<String> string(JsonNode value, List<String> pointers, boolean inKey) {
        JsonNode at = value;
        for (int i = 0; i < pointers.size(); i++) {
            String pointer = pointers.get(i);
            boolean last = i == pointers.size() - 1;
            if (last && inKey) {
                int slash = pointer.lastIndexOf('/');
                return Optional.of(pointer.substring(slash + 1).replace("~1", "/").replace("~0", "~"));
            }
            at = at.at(pointer);
            if (!at.isString()) {
                return Optional.empty();
            }
            if (!last) {
                try {
                    at = Json.mapper().readTree(at.asString());
                } catch (RuntimeException e) {
                    return Optional.empty();
                }
            }
        }
        return at.isString() ? Optional.of(at.asString()) : Optional.empty();
    }
}
