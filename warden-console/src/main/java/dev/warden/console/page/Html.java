package dev.warden.console.page;

import org.owasp.encoder.Encode;

/**
 * The console's one escaper: every string that did not come from the console's own code (names
 * of upstreams and tools, codes, refs, callers, originals, arguments) reaches a page only through
 * here. First what cannot be seen is made visible (controls, bidirectional and zero-width
 * characters, separators, lone surrogates, every default-ignorable code point such as variation
 * selectors, tags and Hangul fillers, and every blank but the ASCII space, written as
 * {@code \\uXXXX} or {@code \\u{XXXXX}} past the BMP, one code point at a time: a right-to-left
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
                || type == Character.UNASSIGNED || type == Character.PRIVATE_USE
                // a blank that is not the ASCII space: no-break, ideographic, the typographic spaces
                || type == Character.SPACE_SEPARATOR && cp != ' ' || cp == 0x2800 // braille blank
                || defaultIgnorable(cp);
    }

    /**
     * Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties): drawn as nothing, whatever
     * their general category (variation selectors and the combining grapheme joiner are marks, the
     * Hangul fillers letters). Those that are format characters or unassigned are caught above too.
     */
    private static boolean defaultIgnorable(int cp) {
        return cp == 0x00AD || cp == 0x034F || cp == 0x061C || cp == 0x115F || cp == 0x1160
                || cp >= 0x17B4 && cp <= 0x17B5 || cp >= 0x180B && cp <= 0x180F || cp >= 0x200B && cp <= 0x200F
                || cp >= 0x202A && cp <= 0x202E || cp >= 0x2060 && cp <= 0x206F || cp == 0x3164
                || cp >= 0xFE00 && cp <= 0xFE0F || cp == 0xFEFF || cp == 0xFFA0 || cp >= 0xFFF0 && cp <= 0xFFF8
                || cp >= 0x1BCA0 && cp <= 0x1BCA3 || cp >= 0x1D173 && cp <= 0x1D17A
                || cp >= 0xE0000 && cp <= 0xE0FFF; // tags, variation selectors 17-256, and the rest of the block
    }
}
