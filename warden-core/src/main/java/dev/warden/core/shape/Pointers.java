package dev.warden.core.shape;

import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Builds RFC 6901 JSON pointers from the paths error shapes use: segment arrays ({@code ["address",
 * "city"]}, {@code ["items", 0]}), dotted paths ({@code address.city}, {@code items[0].name}), pointers
 * ({@code /a/b}, {@code #/a/b}) and JSONPath-like locations ({@code $.a.b}, {@code $['a'][0]}).
 *
 * <p>A pointer is what a model uses to find the argument to fix, never a way to carry text: every
 * segment must be identifier-like (letters, digits, {@code _ - $ @ ~}, at most
 * {@value #MAX_SEGMENT_LENGTH} characters, so a file name, a path, a URL or a sentence is refused),
 * there are at most {@value #MAX_DEPTH} segments and the pointer is at most {@value #MAX_LENGTH}
 * characters. A path that breaks a rule gives no pointer at all (empty), never a cut one. Segments are
 * escaped ({@code ~} as {@code ~0}, {@code /} as {@code ~1}). Hand-written scanners, no regex.
 */
public final class Pointers {

    public static final int MAX_LENGTH = 256;
    public static final int MAX_DEPTH = 16;
    public static final int MAX_SEGMENT_LENGTH = 64;

    private Pointers() {
    }

    /** The whole document: a violation that is about no single member (e.g. a missing one's parent). */
    public static final String ROOT = "";

    /** From an array of string and integer segments; empty if any element is of another type or unsafe. */
    public static Optional<String> fromSegments(JsonNode segments) {
        if (segments == null || !segments.isArray() || segments.size() > MAX_DEPTH) {
            return Optional.empty();
        }
        StringBuilder out = new StringBuilder();
        for (JsonNode s : segments) {
            String segment;
            if (s.isString()) {
                segment = s.stringValue();
            } else if (s.isIntegralNumber() && s.canConvertToInt() && s.intValue() >= 0) {
                segment = Integer.toString(s.intValue());
            } else {
                return Optional.empty();
            }
            if (!append(out, segment)) {
                return Optional.empty();
            }
        }
        return Optional.of(out.toString());
    }

    /** Appends one segment to a pointer already built here; empty if the result would be unsafe. */
    public static Optional<String> append(String pointer, String segment) {
        if (!isSafe(pointer)) {
            return Optional.empty();
        }
        StringBuilder out = new StringBuilder(pointer);
        return append(out, segment) ? Optional.of(out.toString()) : Optional.empty();
    }

    /**
     * From a dotted path with optional brackets: {@code address.city}, {@code items[0].name},
     * {@code emailAddresses[1].email}, {@code a["b"]}. The empty string is the root.
     */
    public static Optional<String> fromDotted(String path) {
        if (path == null || path.length() > MAX_LENGTH) {
            return Optional.empty();
        }
        return parsePath(path, 0);
    }

    /**
     * From a location as validators print it: an RFC 6901 pointer ({@code /a/0}), its URI fragment form
     * ({@code #/a/0}, without percent-escapes), or a JSONPath-like location ({@code $}, {@code $.a.b},
     * {@code $['a'][0]}). The empty string and {@code #} are the root.
     */
    public static Optional<String> fromLocation(String location) {
        if (location == null || location.length() > MAX_LENGTH) {
            return Optional.empty();
        }
        String l = location;
        if (l.startsWith("#")) {
            l = l.substring(1);
        }
        if (l.isEmpty()) {
            return Optional.of(ROOT);
        }
        if (l.charAt(0) == '$') {
            if (l.length() == 1) {
                return Optional.of(ROOT);
            }
            char next = l.charAt(1);
            return next == '.' || next == '[' ? parsePath(l, 1) : Optional.empty();
        }
        if (l.charAt(0) != '/') {
            return Optional.empty();
        }
        StringBuilder out = new StringBuilder();
        int start = 1;
        while (true) {
            int slash = l.indexOf('/', start);
            String raw = l.substring(start, slash < 0 ? l.length() : slash);
            String segment = unescape(raw);
            if (segment == null || !append(out, segment)) {
                return Optional.empty();
            }
            if (slash < 0) {
                return Optional.of(out.toString());
            }
            start = slash + 1;
        }
    }

    /** Whether {@code pointer} is one these methods could have built (the root included). */
    public static boolean isSafe(String pointer) {
        if (pointer == null) {
            return false;
        }
        if (pointer.isEmpty()) {
            return true;
        }
        if (pointer.length() > MAX_LENGTH || pointer.charAt(0) != '/') {
            return false;
        }
        int depth = 0;
        int start = 1;
        while (true) {
            int slash = pointer.indexOf('/', start);
            String segment = unescape(pointer.substring(start, slash < 0 ? pointer.length() : slash));
            if (segment == null || !safeSegment(segment) || ++depth > MAX_DEPTH) {
                return false;
            }
            if (slash < 0) {
                return true;
            }
            start = slash + 1;
        }
    }

    /** Dotted/bracketed path from {@code i}: {@code a.b}, {@code a[0]}, {@code .a}, {@code ['a']}. */
    private static Optional<String> parsePath(String p, int i) {
        StringBuilder out = new StringBuilder();
        int n = p.length();
        boolean expectSegment = i == 0;
        while (i < n) {
            char c = p.charAt(i);
            if (c == '.') {
                i++;
                expectSegment = true;
                continue;
            }
            if (c == '[') {
                int close;
                String segment;
                if (i + 1 < n && (p.charAt(i + 1) == '\'' || p.charAt(i + 1) == '"')) {
                    char quote = p.charAt(i + 1);
                    int end = p.indexOf(quote, i + 2);
                    if (end < 0 || end + 1 >= n || p.charAt(end + 1) != ']') {
                        return Optional.empty();
                    }
                    segment = p.substring(i + 2, end);
                    close = end + 1;
                } else {
                    close = p.indexOf(']', i + 1);
                    if (close < 0) {
                        return Optional.empty();
                    }
                    segment = p.substring(i + 1, close);
                    if (!isIndex(segment)) {
                        return Optional.empty();
                    }
                }
                if (!append(out, segment)) {
                    return Optional.empty();
                }
                i = close + 1;
                expectSegment = false;
                continue;
            }
            if (!expectSegment && out.length() > 0) {
                return Optional.empty();
            }
            int end = i;
            while (end < n && p.charAt(end) != '.' && p.charAt(end) != '[') {
                end++;
            }
            if (!append(out, p.substring(i, end))) {
                return Optional.empty();
            }
            i = end;
            expectSegment = false;
        }
        return Optional.of(out.toString());
    }

    private static boolean append(StringBuilder out, String segment) {
        if (!safeSegment(segment)) {
            return false;
        }
        int before = out.length();
        out.append('/');
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c == '~') {
                out.append("~0");
            } else if (c == '/') {
                out.append("~1");
            } else {
                out.append(c);
            }
        }
        if (out.length() > MAX_LENGTH || depth(out) > MAX_DEPTH) {
            out.setLength(before);
            return false;
        }
        return true;
    }

    private static int depth(CharSequence pointer) {
        int d = 0;
        for (int i = 0; i < pointer.length(); i++) {
            if (pointer.charAt(i) == '/') {
                d++;
            }
        }
        return d;
    }

    /** Identifier-like: a name a schema would declare, not a path, a file name, a URL or prose. */
    static boolean safeSegment(String segment) {
        if (segment.isEmpty() || segment.length() > MAX_SEGMENT_LENGTH) {
            return false;
        }
        for (int i = 0; i < segment.length(); ) {
            int cp = segment.codePointAt(i);
            if (!(Character.isLetterOrDigit(cp) || cp == '_' || cp == '-' || cp == '$' || cp == '@' || cp == '~')) {
                return false;
            }
            i += Character.charCount(cp);
        }
        return true;
    }

    private static boolean isIndex(String s) {
        if (s.isEmpty() || s.length() > 9) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** RFC 6901 unescaping of one segment; null if a {@code ~} is not followed by 0 or 1. */
    private static String unescape(String raw) {
        if (raw.indexOf('~') < 0) {
            return raw;
        }
        StringBuilder s = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c != '~') {
                s.append(c);
            } else if (i + 1 < raw.length() && (raw.charAt(i + 1) == '0' || raw.charAt(i + 1) == '1')) {
                s.append(raw.charAt(++i) == '0' ? '~' : '/');
            } else {
                return null;
            }
        }
        return s.toString();
    }
}
