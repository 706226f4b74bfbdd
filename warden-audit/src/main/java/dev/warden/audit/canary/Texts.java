package dev.warden.audit.canary;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The strings of an answer with their JSON pointers, bounded in number, depth and length (a server
 * cannot make the judge read without end), each also lower-cased for the signature scans.
 */
final class Texts {

    /** One string of an answer: where it stands, and its text (cut at {@link #MAX_CHARS}). */
    record Text(String pointer, String text, String lower) {
    }

    static final int MAX_STRINGS = 1_000;
    static final int MAX_DEPTH = 32;
    static final int MAX_CHARS = 256 * 1024;

    private Texts() {
    }

    static List<Text> of(JsonNode message) {
        List<Text> out = new ArrayList<>();
        collect(message, "", out, 0);
        return out;
    }

    static Text of(String pointer, String text) {
        String cut = text.length() > MAX_CHARS ? text.substring(0, MAX_CHARS) : text;
        return new Text(pointer, cut, cut.toLowerCase(Locale.ROOT));
    }

    private static void collect(JsonNode node, String pointer, List<Text> out, int depth) {
        if (out.size() >= MAX_STRINGS || depth > MAX_DEPTH) {
            return;
        }
        if (node.isString()) {
            out.add(of(pointer.isEmpty() ? "/" : pointer, node.asString()));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collect(node.get(i), pointer + "/" + i, out, depth + 1);
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                String key = e.getKey().replace("~", "~0").replace("/", "~1");
                collect(e.getValue(), pointer + "/" + key, out, depth + 1);
            }
        }
    }

    /**
     * Whether {@code token} stands in {@code text} as a shell's output would put it: whole (not the
     * start of a longer word) and not right after {@code echo } (a server that strips the quotes
     * from the value and repeats it has run nothing).
     */
    static boolean assembled(String text, String token) {
        for (int at = text.indexOf(token); at >= 0; at = text.indexOf(token, at + 1)) {
            int end = at + token.length();
            boolean whole = end >= text.length() || !Character.isLetterOrDigit(text.charAt(end));
            boolean echoed = at >= 5 && text.regionMatches(true, at - 5, "echo ", 0, 5);
            if (whole && !echoed) {
                return true;
            }
        }
        return false;
    }
}
