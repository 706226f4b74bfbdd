package dev.warden.console.page;

import org.owasp.encoder.Encode;

/**
 * The console's one escaper: every string that did not come from the console's own code (names
 * of upstreams and tools, codes, refs, callers, originals, arguments) reaches a page only through
 * here. First what cannot be seen is made visible (controls, bidirectional and zero-width
 * characters, separators and lone surrogates written as {@code \\uXXXX}: a right-to-left
 * override must not reorder what the operator reads), then OWASP's encoder makes it text in HTML
 * content and quoted attribute values alike.
 */
public final class Html {

    /** Code points shown of one name or value; the rest is cut with an ellipsis (a block is never cut). */
    static final int MAX_LINE = 300;

    private Html() {
    }

    /** One line: element content or a quoted attribute value. */
    public static String text(String untrusted) {
        return Encode.forHtml(visible(untrusted, false, MAX_LINE));
    }

    /** Several lines (an original, a stack), kept as lines, for a {@code <pre>}. */
    public static String block(String untrusted) {
        return Encode.forHtml(visible(untrusted, true, Integer.MAX_VALUE));
    }

    /** A value in a link's query or path, inside a quoted attribute. */
    public static String uriComponent(String untrusted) {
        return Encode.forHtmlAttribute(Encode.forUriComponent(untrusted));
    }

    private static String visible(String text, boolean lines, int max) {
        StringBuilder out = new StringBuilder(Math.min(text.length(), 1024));
        int shown = 0;
        for (int i = 0; i < text.length(); shown++) {
            if (shown == max) {
                return out.append('…').toString();
            }
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (lines && (cp == '\n' || cp == '\t')) {
                out.appendCodePoint(cp);
            } else if (hidden(cp)) {
                out.append(cp > 0xFFFF ? String.format("\\u{%X}", cp) : String.format("\\u%04X", cp));
            } else {
                out.appendCodePoint(cp);
            }
        }
        return out.toString();
    }

    private static boolean hidden(int cp) {
        int type = Character.getType(cp);
        return type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE
                || type == Character.UNASSIGNED || type == Character.PRIVATE_USE;
    }
}
