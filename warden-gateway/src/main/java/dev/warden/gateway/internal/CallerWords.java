package dev.warden.gateway.internal;

import java.util.Locale;
import java.util.Set;

/**
 * An upstream's error text with the caller's own words masked, for reading a code from it: a code
 * says what the server found wrong, so a word the caller sent (a value containing "constraint", a
 * table it named "permission_denied") must not choose it. Masked: every occurrence of a whole
 * input value, and every quoted span ({@code "…"}, {@code '…'}, {@code `…`}) whose content is part
 * of an input (how databases and validators repeat an identifier: {@code column "emial" does not
 * exist}). One linear pass per input value; no regular expressions.
 */
final class CallerWords {

    /** What stands in for the caller's words: no letters, so no word list can match it. */
    static final String MASK = "\u2026";
    /** Quoted spans longer than this are not identifiers; left as they are. */
    private static final int MAX_QUOTED = 256;

    private CallerWords() {
    }

    static String masked(String text, Set<String> inputs) {
        if (inputs.isEmpty()) {
            return text;
        }
        String out = text;
        for (String input : inputs) {
            if (out.contains(input)) {
                out = out.replace(input, MASK);
            }
        }
        return maskQuoted(out, inputs);
    }

    private static String maskQuoted(String text, Set<String> inputs) {
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
            if (!inside.isEmpty() && partOfAnInput(inside, inputs)) {
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

    private static boolean partOfAnInput(String quoted, Set<String> inputs) {
        String q = quoted.toLowerCase(Locale.ROOT);
        for (String input : inputs) {
            if (input.toLowerCase(Locale.ROOT).contains(q)) {
                return true;
            }
        }
        return false;
    }
}
