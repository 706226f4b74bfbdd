package dev.warden.audit.report;

/**
 * Text that came from the server's side (tool and server names, and the probes, locations and
 * messages that quote them) made safe to show. A tool name can hold a terminal escape, a
 * right-to-left override or a megabyte of text; what a reader sees must be what is there, one line,
 * short. Every format but JSON and SARIF (which are data, escaped by Jackson) shows text through this.
 */
final class Untrusted {

    /** Code points shown of one value; the rest is cut off with an ellipsis. */
    static final int MAX_SHOWN = 200;

    private Untrusted() {
    }

    /**
     * {@code text} as one printable line of at most {@value #MAX_SHOWN} code points: controls,
     * invisible format characters (zero-width, bidirectional, tag characters), separators and lone
     * surrogates are written as {@code \\uXXXX}, so they are seen rather than obeyed.
     */
    static String printable(String text) {
        StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_SHOWN) + 8);
        int shown = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (shown == MAX_SHOWN) {
                out.append('…');
                break;
            }
            if (visible(cp)) {
                out.appendCodePoint(cp);
            } else {
                out.append(cp > 0xFFFF ? String.format("\\u{%X}", cp) : String.format("\\u%04X", cp));
            }
            shown++;
            i += Character.charCount(cp);
        }
        return out.toString();
    }

    /** {@code text}, {@linkplain #printable printable}, then escaped for HTML text and attribute values. */
    static String html(String text) {
        String shown = printable(text);
        StringBuilder out = new StringBuilder(shown.length() + 16);
        for (int i = 0; i < shown.length(); i++) {
            char c = shown.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean visible(int cp) {
        return switch (Character.getType(cp)) {
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                 Character.SURROGATE, Character.UNASSIGNED, Character.PRIVATE_USE -> false;
            default -> true;
        };
    }
}
