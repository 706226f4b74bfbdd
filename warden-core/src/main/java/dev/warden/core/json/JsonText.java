package dev.warden.core.json;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.BooleanNode;
import tools.jackson.databind.node.IntNode;
import tools.jackson.databind.node.LongNode;
import tools.jackson.databind.node.MissingNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * A JSON tree written as compact text, character for character as {@link JsonNode#toString()}
 * writes it, without the mapper: every message a session sends is written here, and the mapper's
 * writer (a serialization context, a generator and a serializer lookup per message) cost several
 * times more, most of all in a fresh process, where it runs interpreted. Objects, arrays, strings,
 * ints, longs, booleans, null and a missing node (as null, as the mapper writes it in a tree) are
 * written here; any other node (floating-point and big numbers, binary, POJO) is left to its own
 * {@code toString()}, so its text is the mapper's by construction.
 */
public final class JsonText {

    /**
     * Beyond this depth a subtree goes to the mapper's own writer, which does not recurse: a tree
     * built in code may be deeper than any parsed one ({@link Json#MAX_NESTING_DEPTH}).
     */
    private static final int MAX_DEPTH = 64;

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private JsonText() {
    }

    public static String of(JsonNode node) {
        StringBuilder b = new StringBuilder(128);
        append(b, node);
        return b.toString();
    }

    public static void append(StringBuilder b, JsonNode node) {
        append(b, node, 0);
    }

    private static void append(StringBuilder b, JsonNode node, int depth) {
        if (depth > MAX_DEPTH) {
            b.append(node.toString());
            return;
        }
        switch (node) {
            case ObjectNode object -> {
                b.append('{');
                boolean first = true;
                for (var entry : object.properties()) {
                    if (!first) {
                        b.append(',');
                    }
                    first = false;
                    string(b, entry.getKey());
                    b.append(':');
                    append(b, entry.getValue(), depth + 1);
                }
                b.append('}');
            }
            case ArrayNode array -> {
                b.append('[');
                for (int i = 0; i < array.size(); i++) {
                    if (i > 0) {
                        b.append(',');
                    }
                    append(b, array.get(i), depth + 1);
                }
                b.append(']');
            }
            case StringNode text -> string(b, text.stringValue());
            case IntNode number -> b.append(number.intValue());
            case LongNode number -> b.append(number.longValue());
            case BooleanNode bool -> b.append(bool.booleanValue());
            case NullNode ignored -> b.append("null");
            // a member set from a path() that found nothing: the mapper writes null (its own toString is "")
            case MissingNode ignored -> b.append("null");
            default -> b.append(node.toString());
        }
    }

    /** A JSON string as the mapper escapes it: quotes, backslashes and control characters, nothing else. */
    public static void string(StringBuilder b, String s) {
        b.append('"');
        int plainFrom = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\') {
                continue;
            }
            b.append(s, plainFrom, i);
            plainFrom = i + 1;
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                default -> b.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
        }
        b.append(s, plainFrom, s.length());
        b.append('"');
    }
}
