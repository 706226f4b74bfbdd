package dev.warden.core.incident;

import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import dev.warden.core.sanitize.detection.Category;
import java.util.Map;
import java.util.Objects;
import tools.jackson.core.io.JsonStringEncoder;
import tools.jackson.databind.JsonNode;

/**
 * A request's params as an incident keeps them ({@link Incident#arguments()}): JSON text in which
 * every string, keys included, went through the default sanitizer where it stands (a token the
 * user typed is not kept; the serialized text is never what is sanitized, so JSON escapes cannot
 * hide a secret), at most {@value #MAX_CHARS} characters and always valid JSON: what does not fit
 * is left out and marked {@code "…"}. {@code _meta} (protocol bookkeeping) is left out.
 *
 * <p>Prompt-injection detection is off here: such text is not a leak, and the operator looking
 * into an incident wants to see the attempt, not a generic message in its place.
 */
public final class IncidentArguments {

    public static final int MAX_CHARS = 4096;
    /** Deeper than this, a value is replaced by the mark. */
    static final int MAX_DEPTH = 32;
    private static final String MARK = "…";
    /** Room kept for the one mark written when the budget runs out: {@code ,"…":"…"}. */
    private static final int MARK_ROOM = 12;
    private static final Sanitizer SANITIZER = Sanitizer.builder().disable(Category.INJECTION).build();

    private final StringBuilder out = new StringBuilder();
    private final int max;
    private boolean full;

    private IncidentArguments(int max) {
        this.max = max;
    }

    /** The params of a request as an incident keeps them. */
    public static String of(JsonNode params) {
        return of(params, MAX_CHARS);
    }

    static String of(JsonNode params, int maxChars) {
        Objects.requireNonNull(params, "params");
        if (maxChars < 64) {
            throw new IllegalArgumentException("maxChars must be at least 64, got " + maxChars);
        }
        IncidentArguments writer = new IncidentArguments(maxChars);
        writer.value(params, 0);
        return writer.out.toString();
    }

    /** What may still be written at this depth, keeping room for the closing brackets and one mark. */
    private int room(int depth) {
        return max - out.length() - depth - MARK_ROOM;
    }

    private void value(JsonNode node, int depth) {
        if (node.isObject()) {
            if (depth >= MAX_DEPTH) {
                quoted(MARK);
                return;
            }
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                if (full) {
                    break;
                }
                if (depth == 0 && field.getKey().equals("_meta")) {
                    continue;
                }
                String key = SANITIZER.sanitize(field.getKey(), Policy.REDACT).output();
                int keyRoom = escaped(key).length() + 2;
                // A key is written whole with room for a value, or left out with the rest; only a key
                // that could never fit (a quarter of the bound) is cut.
                boolean monster = keyRoom > max / 4;
                if (room(depth + 1) < 8 || !monster && keyRoom + 8 > room(depth + 1)) {
                    mark(first, true);
                    break;
                }
                if (!first) {
                    out.append(',');
                }
                first = false;
                clean(key, monster ? (room(depth + 1) - 4) / 2 : keyRoom);
                out.append(':');
                value(field.getValue(), depth + 1);
            }
            out.append('}');
        } else if (node.isArray()) {
            if (depth >= MAX_DEPTH) {
                quoted(MARK);
                return;
            }
            out.append('[');
            boolean first = true;
            for (JsonNode item : node) {
                if (full || room(depth + 1) < 8) {
                    mark(first, false);
                    break;
                }
                if (!first) {
                    out.append(',');
                }
                first = false;
                value(item, depth + 1);
            }
            out.append(']');
        } else if (node.isString()) {
            clean(SANITIZER.sanitize(node.stringValue(), Policy.REDACT).output(), room(depth));
        } else {
            String text = node.toString(); // a number, a boolean or null
            if (text.length() <= room(depth)) {
                out.append(text);
            } else {
                full = true;
                quoted(MARK);
            }
        }
    }

    /** The one mark saying that more followed, then nothing more is written. */
    private void mark(boolean first, boolean inObject) {
        if (!full) {
            if (!first) {
                out.append(',');
            }
            quoted(MARK);
            if (inObject) {
                out.append(':');
                quoted(MARK);
            }
            full = true;
        }
    }

    /** A sanitized string, cut (and marked) so that its JSON form takes at most {@code room} characters. */
    private void clean(String clean, int room) {
        CharSequence escaped = escaped(clean);
        if (escaped.length() + 2 <= room) {
            out.append('"').append(escaped).append('"');
            return;
        }
        full = true;
        int keep = Math.max(0, Math.min(clean.length(), room - 2 - MARK.length()));
        while (keep > 0) {
            if (Character.isHighSurrogate(clean.charAt(keep - 1))) {
                keep--;
                continue;
            }
            CharSequence cut = escaped(clean.substring(0, keep));
            int excess = cut.length() + 2 + MARK.length() - room;
            if (excess <= 0) {
                out.append('"').append(cut).append(MARK).append('"');
                return;
            }
            keep -= Math.max(1, excess);
        }
        quoted(MARK);
    }

    private static CharSequence escaped(String text) {
        StringBuilder b = new StringBuilder(text.length() + 8);
        JsonStringEncoder.getInstance().quoteAsString(text, b);
        return b;
    }

    private void quoted(String text) {
        out.append('"').append(text).append('"');
    }
}
