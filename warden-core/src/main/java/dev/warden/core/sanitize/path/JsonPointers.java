package dev.warden.core.sanitize.path;

import dev.warden.core.sanitize.scan.Text;
import java.util.Set;

/**
 * Where a slash-separated token stands decides whether it is a JSON Pointer (RFC 6901) a validator
 * wrote or a path on the server: its words never do ({@code /data/attributes/email} is JSON:API's
 * pointer, though {@code data} is also a directory name). A pointer stands as the value of a member
 * that names one ({@code source.pointer} of JSON:API, {@code instancePath} of ajv), raw or encoded
 * once more, or heads a line of a validation message ({@code /a/b: must be …}).
 */
public final class JsonPointers {

    /** Members whose value is a JSON Pointer into the caller's document, by the spec or library that defines them. */
    private static final Set<String> POINTER_MEMBERS = Set.of("pointer", "instancePath", "dataPath", "jsonPointer",
            "json_pointer", "instance_path", "data_path");
    /**
     * Top-level directories that name a person: a line headed by {@code /home/alice: Permission denied}
     * is a shell's, and no validator's pointer starts there. Kept redacted, as before, for safety.
     */
    private static final Set<String> PERSONAL_ROOTS = Set.of("home", "Users", "root");

    private JsonPointers() {
    }

    public static boolean isPointerMember(String name) {
        return POINTER_MEMBERS.contains(name);
    }

    /**
     * Whether {@code text[from, to)}, a token of path characters starting with a slash, stands where
     * a pointer stands: after a pointer member's colon and quote (escaped quotes included), or at the
     * head of a line (after indentation or a list bullet) and followed by a colon and a space.
     */
    public static boolean standsAsPointer(String text, int from, int to, int firstSegmentEnd) {
        if (!rfc6901(text, from, to)) {
            return false;
        }
        if (afterPointerMember(text, from)) {
            return true;
        }
        boolean followedByMessage = to + 1 < text.length() && text.charAt(to) == ':' && text.charAt(to + 1) == ' ';
        return followedByMessage && headsLine(text, from)
                && !PERSONAL_ROOTS.contains(text.substring(from + 1, firstSegmentEnd));
    }

    /** A whole string in a pointer member, as {@code JsonSanitizer} sees it. */
    public static boolean wholeValueIsPointer(String value) {
        return !value.isEmpty() && value.charAt(0) == '/' && rfc6901(value, 0, value.length())
                && !FilePathDetector.hasExtension(value, value.lastIndexOf('/') + 1, value.length());
    }

    /** Every {@code ~} escapes a {@code /} or itself ({@code ~1}, {@code ~0}); no spaces or quotes. */
    private static boolean rfc6901(String text, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c == '~' && (i + 1 >= to || (text.charAt(i + 1) != '0' && text.charAt(i + 1) != '1'))) {
                return false;
            }
            if (Text.isSpace(c) || c == '"' || c == '\\' || c == ':') {
                return false;
            }
        }
        return true;
    }

    private static boolean afterPointerMember(String text, int at) {
        int i = at - 1;
        i = skipQuote(text, i);
        if (i == at - 1) {
            return false; // no opening quote of a string value
        }
        while (i >= 0 && Text.isSpace(text.charAt(i))) {
            i--;
        }
        if (i < 0 || text.charAt(i) != ':') {
            return false;
        }
        i--;
        while (i >= 0 && Text.isSpace(text.charAt(i))) {
            i--;
        }
        int close = i;
        i = skipQuote(text, i);
        if (i == close) {
            return false;
        }
        int nameEnd = i + 1;
        while (i >= 0 && (Text.isAlnum(text.charAt(i)) || text.charAt(i) == '_')) {
            i--;
        }
        int nameStart = i + 1;
        if (nameEnd - nameStart < 1 || nameEnd - nameStart > 16 || i < 0 || text.charAt(i) != '"') {
            return false;
        }
        return POINTER_MEMBERS.contains(text.substring(nameStart, nameEnd));
    }

    /** Steps back over a quote and the backslashes that escape it (JSON encoded once or more); {@code i} if none. */
    private static int skipQuote(String text, int i) {
        if (i < 0 || text.charAt(i) != '"') {
            return i;
        }
        int j = i - 1;
        while (j >= 0 && text.charAt(j) == '\\') {
            j--;
        }
        return j;
    }

    private static boolean headsLine(String text, int at) {
        int i = at - 1;
        while (i >= 0 && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i--;
        }
        if (i >= 0 && (text.charAt(i) == '-' || text.charAt(i) == '*' || text.charAt(i) == '\u2022')) {
            i--;
            while (i >= 0 && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
                i--;
            }
        }
        return i < 0 || text.charAt(i) == '\n';
    }
}
