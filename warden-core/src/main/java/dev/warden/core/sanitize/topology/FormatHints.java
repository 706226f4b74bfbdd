package dev.warden.core.sanitize.topology;

import dev.warden.core.sanitize.scan.Text;

/**
 * Whether a word is the example of a format hint in a validation message: "must look like
 * {@code ord_123}", "e.g. {@code inv_2024_001}", "expected format {@code cus_9f2c1e}", "such as
 * {@code run_42} or {@code run_43}". The example is what the model needs to write its next call;
 * the server wrote it for its callers, so it is no name of the installation. Only the name
 * detector asks: a secret, a path or an address stays a finding wherever it stands.
 *
 * <p>Linear and bounded: it looks back at most {@value #LOOK_BACK} characters from the word.
 */
final class FormatHints {

    static final int LOOK_BACK = 80;
    /** How many earlier examples of a list ("a, b or c") are stepped over to reach the hint. */
    private static final int MAX_LISTED = 4;

    /** Lower-case phrases that introduce an example; each must start at a word boundary. */
    private static final String[] PHRASES = {"like", "e.g.", "e.g.,", "eg.", "eg:", "i.e.", "for example",
            "for instance", "such as", "format", "formatted as", "pattern", "example", "example:", "for example:"};

    private FormatHints() {
    }

    static boolean example(String text, int start) {
        int floor = Math.max(0, start - LOOK_BACK);
        int j = gap(text, start, floor);
        for (int listed = 0; listed <= MAX_LISTED && j > floor; listed++) {
            if (phraseEndsAt(text, j)) {
                return true;
            }
            int k;
            if (wordEndsAt(text, j, "or")) {
                k = j - 2;
            } else if (wordEndsAt(text, j, "and")) {
                k = j - 3;
            } else if (text.charAt(j - 1) == ',') {
                k = j - 1;
            } else {
                return false;
            }
            k = gap(text, k, floor);
            int end = k;
            while (k > floor && exampleChar(text.charAt(k - 1))) {
                k--;
            }
            if (k == end) {
                return false;
            }
            j = gap(text, k, floor);
        }
        return false;
    }

    /** Steps back over what stands between a hint and its example: spaces, quotes, a colon, a parenthesis. */
    private static int gap(String text, int at, int floor) {
        int j = at;
        while (j > floor) {
            char c = text.charAt(j - 1);
            if (c == ' ' || c == '\t' || c == '"' || c == '\'' || c == '`' || c == ':' || c == '(' || c == '=') {
                j--;
            } else {
                break;
            }
        }
        return j;
    }

    private static boolean phraseEndsAt(String text, int end) {
        for (String phrase : PHRASES) {
            if (wordEndsAt(text, end, phrase)) {
                return true;
            }
        }
        return false;
    }

    private static boolean wordEndsAt(String text, int end, String lowerWord) {
        int start = end - lowerWord.length();
        return start >= 0 && Text.matchesIgnoreCase(text, start, lowerWord)
                && (start == 0 || !Text.isAlnum(text.charAt(start - 1)));
    }

    private static boolean exampleChar(char c) {
        return Text.isWordChar(c) || c == '-' || c == '.';
    }
}
