package dev.warden.core.failure;

import java.util.Locale;
import java.util.Set;

/**
 * A server's error text with the caller's own words masked, for reading a code from it: a code says
 * what the server found wrong, so a word the caller sent must not choose it. Masks whole argument
 * values (and quoted spans holding one) and argument names where the text names them as fields, so
 * a server's own "Request timeout" still counts. Linear passes, no regular expressions. What is
 * masked, exactly: docs/reference/failure-codes.md ("What is never evidence").
 */
public final class CallerWords {

    /** What stands in for the caller's words: no letters, so no word list can match it. */
    public static final String MASK = "\u2026";
    /** Quoted spans longer than this are not identifiers; left as they are. */
    private static final int MAX_QUOTED = 256;

    private CallerWords() {
    }

    /** {@code text} with the caller's values masked. */
    public static String masked(String text, Set<String> values) {
        return masked(text, values, Set.of());
    }

    /** {@code text} with the caller's values and argument names masked. */
    public static String masked(String text, Set<String> values, Set<String> names) {
        String out = text;
        for (String input : values) {
            if (!input.isEmpty() && out.contains(input)) {
                out = out.replace(input, MASK);
            }
        }
        if (!values.isEmpty() || !names.isEmpty()) {
            out = maskQuoted(out, values, names);
        }
        return names.isEmpty() ? out : maskNames(out, names);
    }

    private static String maskQuoted(String text, Set<String> values, Set<String> names) {
        StringBuilder b = null;
        int copied = 0;
        for (int i = 0; i < text.length(); i++) {
            char q = text.charAt(i);
            if (q != '"' && q != '\'' && q != '`') {
                continue;
            }
            int end = text.indexOf(q, i + 1);
            if (end < 0 || end - i - 1 > MAX_QUOTED) {
                continue;
            }
            String inside = text.substring(i + 1, end);
            if (!inside.isEmpty() && (partOfAValue(inside, values) || names.contains(inside))) {
                if (b == null) {
                    b = new StringBuilder(text.length());
                }
                b.append(text, copied, i + 1).append(MASK);
                copied = end;
            }
            i = end;
        }
        if (b == null) {
            return text;
        }
        return b.append(text, copied, text.length()).toString();
    }

    private static boolean partOfAValue(String quoted, Set<String> values) {
        String q = quoted.toLowerCase(Locale.ROOT);
        for (String input : values) {
            if (input.toLowerCase(Locale.ROOT).contains(q)) {
                return true;
            }
        }
        return false;
    }

    private static String maskNames(String text, Set<String> names) {
        StringBuilder b = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            if (!tokenChar(text.charAt(i))) {
                b.append(text.charAt(i++));
                continue;
            }
            int end = i;
            while (end < text.length() && tokenChar(text.charAt(end))) {
                end++;
            }
            String token = text.substring(i, end);
            boolean field = names.contains(token) && (identifier(token)
                    || end < text.length() && text.charAt(end) == ':'
                    || i > 0 && "/.[".indexOf(text.charAt(i - 1)) >= 0);
            b.append(field ? MASK : token);
            i = end;
        }
        return b.toString();
    }

    private static boolean tokenChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '-';
    }

    /** A name no prose uses as a word: {@code timeout_ms}, {@code max-age}, {@code page2}, {@code timeoutMs}. */
    private static boolean identifier(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '_' || c == '-' || Character.isDigit(c) || i > 0 && Character.isUpperCase(c)) {
                return true;
            }
        }
        return false;
    }
}
