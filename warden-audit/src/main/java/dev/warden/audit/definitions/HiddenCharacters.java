package dev.warden.audit.definitions;

/**
 * Characters a reader of a definition does not see but a model reads: zero-width characters, the
 * bidirectional controls that reorder what is shown (Trojan Source, CVE-2021-42574), the tag
 * characters that spell ASCII invisibly (the "ASCII smuggling" of prompt-injection write-ups), and
 * the other format characters (Unicode category Cf). A soft hyphen is common in real text and only
 * counts among the last.
 */
final class HiddenCharacters {

    static final String ZERO_WIDTH = "zero-width";
    static final String BIDI = "bidi-control";
    static final String TAG = "tag-character";
    static final String FORMAT = "format-character";

    private HiddenCharacters() {
    }

    /** The category of {@code cp}, or null for a character a reader sees. */
    static String categoryOf(int cp) {
        if (cp >= 0x200B && cp <= 0x200D || cp == 0x2060 || cp == 0xFEFF) {
            return ZERO_WIDTH;
        }
        if (cp >= 0x202A && cp <= 0x202E || cp >= 0x2066 && cp <= 0x2069 || cp == 0x200E || cp == 0x200F
                || cp == 0x061C) {
            return BIDI;
        }
        if (cp >= 0xE0000 && cp <= 0xE007F) {
            return TAG;
        }
        if (Character.getType(cp) == Character.FORMAT) {
            return FORMAT;
        }
        return null;
    }

    /**
     * What is hidden in {@code text}: the worst category found (tags, then bidi controls, then
     * zero-width, then other format characters) and how many hidden characters there are; null when none.
     */
    static Hidden scan(String text) {
        int count = 0;
        int worst = Integer.MAX_VALUE;
        String worstCategory = null;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            String category = categoryOf(cp);
            if (category != null) {
                count++;
                int rank = rank(category);
                if (rank < worst) {
                    worst = rank;
                    worstCategory = category;
                }
            }
        }
        return count == 0 ? null : new Hidden(worstCategory, count);
    }

    private static int rank(String category) {
        return switch (category) {
            case TAG -> 0;
            case BIDI -> 1;
            case ZERO_WIDTH -> 2;
            default -> 3;
        };
    }

    record Hidden(String category, int count) {
    }
}
