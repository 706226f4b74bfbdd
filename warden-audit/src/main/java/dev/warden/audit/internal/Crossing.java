package dev.warden.audit.internal;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Whether one caller reached another's record: its answer for the owner's identifier is a success
 * carrying what the owner's own answer carried (the same text, or nearly all its words), where the
 * same caller's call with an identifier nobody owns (the control) failed. A tool that answers every
 * identifier alike (the control succeeds with a record too) proves nothing and is not judged.
 */
public final class Crossing {

    /** Share of the owner's words the other caller's answer must carry. */
    static final double CARRIES = 0.8;
    /** Share of the owner's words above which the control's answer counts as a record too. */
    static final double CONTROL_ALIKE = 0.5;
    private static final int MAX_TEXT = 64 * 1024;

    private Crossing() {
    }

    /** A result that is not {@code isError}. */
    public static boolean success(JsonNode answer) {
        JsonNode result = answer.path("result");
        return result.isObject() && !result.path("isError").asBoolean(false);
    }

    /**
     * Whether {@code other}'s answer for {@code id} carries the owner's record while {@code control}
     * (the same caller, {@code controlId}) failed.
     */
    public static boolean crosses(JsonNode owner, JsonNode other, JsonNode control, String id, String controlId) {
        if (!success(owner) || !success(other)) {
            return false;
        }
        Set<String> ignored = new HashSet<>(words(id));
        ignored.addAll(words(controlId));
        Set<String> record = words(text(owner));
        record.removeAll(ignored);
        if (record.isEmpty()) {
            return false; // an answer with nothing but the identifier carries no record
        }
        boolean carried = text(other).equals(text(owner)) || share(record, words(text(other))) >= CARRIES;
        boolean controlFailed = !success(control) || share(record, words(text(control))) < CONTROL_ALIKE;
        return carried && controlFailed;
    }

    /**
     * An identifier shaped like {@code id} that none of {@code seen} is: its last run of digits made
     * larger ({@code note-101} → {@code note-90101}), or, without digits, a suffix.
     */
    public static String control(String id, Set<String> seen) {
        int end = id.length();
        while (end > 0 && !Character.isDigit(id.charAt(end - 1))) {
            end--;
        }
        int start = end;
        while (start > 0 && Character.isDigit(id.charAt(start - 1))) {
            start--;
        }
        for (int bump = 9; bump < 1_000_000; bump = bump * 10 + 9) {
            String candidate = end == 0 ? id + "-x" + bump
                    : id.substring(0, start) + bump + id.substring(start, end) + id.substring(end);
            if (!seen.contains(candidate)) {
                return candidate;
            }
        }
        return id + "-nobody";
    }

    /** The text a tools/call answer carries: its content's texts and its structured content. */
    static String text(JsonNode answer) {
        StringBuilder out = new StringBuilder();
        JsonNode result = answer.path("result");
        for (JsonNode content : result.path("content")) {
            out.append(content.path("text").asString("")).append('\n');
        }
        if (result.has("structuredContent")) {
            out.append(result.get("structuredContent").toString());
        }
        return out.length() > MAX_TEXT ? out.substring(0, MAX_TEXT) : out.toString();
    }

    private static double share(Set<String> record, Set<String> in) {
        long carried = record.stream().filter(in::contains).count();
        return (double) carried / record.size();
    }

    /** Lower-case words of two characters or more. */
    static Set<String> words(String text) {
        Set<String> out = new HashSet<>();
        StringBuilder word = new StringBuilder();
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : ' ';
            if (Character.isLetterOrDigit(c)) {
                word.append(Character.toLowerCase(c));
            } else {
                if (word.length() >= 2) {
                    out.add(word.toString().toLowerCase(Locale.ROOT));
                }
                word.setLength(0);
            }
        }
        return out;
    }
}
