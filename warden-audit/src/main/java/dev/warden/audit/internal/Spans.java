package dev.warden.audit.internal;

import dev.warden.core.json.Json;
import dev.warden.core.sanitize.JsonFinding;
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
        return text.map(t -> span(clean(t), finding.finding().start(), finding.finding().end())).orElse("");
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

    /** The sanitizer's cleaning (core's package-private Sanitizer.clean), by its rules but for ANSI escapes. */
    public static String clean(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x7F) {
                out.append(c);
                i++;
                continue;
            }
            boolean keep = c >= 0x20 && c != 0x7F && !(c >= 0x80 && c < 0xA0) && !Character.isSurrogate(c)
                    && c != '\u2028' && c != '\u2029' && !(c >= '\u202A' && c <= '\u202E')
                    && !(c >= '\u2066' && c <= '\u2069') && c != '\u200B' && c != '\uFEFF';
            if (keep || c == '\n' || c == '\t') {
                out.append(c);
                i++;
                continue;
            }
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                out.append(c).append(s.charAt(i + 1));
                i += 2;
                continue;
            }
            if (Character.isSurrogate(c)) {
                out.append('\uFFFD');
            } else if (c == '\r' && (i + 1 >= n || s.charAt(i + 1) != '\n')) {
                out.append('\n');
            }
            // ANSI escapes lose their ESC only here (core drops the whole sequence): a span after one
            // in the same string is then fingerprinted a few characters off, never shown.
            i++;
        }
        return out.toString();
    }
}
