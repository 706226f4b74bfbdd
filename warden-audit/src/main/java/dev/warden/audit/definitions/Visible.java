package dev.warden.audit.definitions;

/**
 * A server's name for something, fit for a report: invisible and direction-changing characters
 * written as {@code <U+202E>}, so a report neither hides them nor lets them reorder its own text.
 */
final class Visible {

    private Visible() {
    }

    static String of(String s) {
        StringBuilder out = null;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            int next = i + Character.charCount(cp);
            if (HiddenCharacters.categoryOf(cp) != null || Character.isISOControl(cp)) {
                if (out == null) {
                    out = new StringBuilder(s.length() + 16).append(s, 0, i);
                }
                out.append(String.format("<U+%04X>", cp));
            } else if (out != null) {
                out.appendCodePoint(cp);
            }
            i = next;
        }
        return out == null ? s : out.toString();
    }
}
