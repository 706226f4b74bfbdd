package dev.warden.cli;

/**
 * Text from an incident as a terminal may show it. Originals, tool names and arguments come from
 * upstreams and callers: an escape sequence among them must not move the operator's cursor,
 * rewrite a line already printed or set the window title, so control characters are shown as
 * {@code \xNN} instead of being sent.
 */
final class Printable {

    private Printable() {
    }

    /** One line: every control character (tab and newline too) shown escaped. */
    static String line(String text) {
        return escaped(text, false);
    }

    /** Several lines: newlines kept (and tabs), other control characters escaped. */
    static String lines(String text) {
        return escaped(text, true);
    }

    private static String escaped(String text, boolean keepLines) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean control = c < 0x20 || c == 0x7F || c >= 0x80 && c < 0xA0 || c == '\u2028' || c == '\u2029';
            boolean kept = keepLines && (c == '\n' || c == '\t');
            if (control && !kept) {
                if (out == null) {
                    out = new StringBuilder(text.length() + 8).append(text, 0, i);
                }
                out.append(String.format("\\x%02x", c & 0xFF));
            } else if (out != null) {
                out.append(c);
            }
        }
        return out == null ? text : out.toString();
    }
}
