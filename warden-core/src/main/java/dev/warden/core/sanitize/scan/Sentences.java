package dev.warden.core.sanitize.scan;

/**
 * The sentence around a span of text: from after the previous sentence end to the next one. A
 * sentence ends at a line break, or at {@code .}, {@code !} or {@code ?} followed by white space
 * (so "evil.example" and "v1.2" do not end one). Each call scans at most up to its bound, so
 * callers keep the whole pass linear.
 */
public final class Sentences {

    private Sentences() {
    }

    /** The start of the sentence holding {@code at}, looking back no further than {@code floor}. */
    public static int start(String text, int at, int floor) {
        int i = Math.min(at, text.length());
        while (i > Math.max(0, floor)) {
            char c = text.charAt(i - 1);
            if (c == '\n' || c == '\r') {
                break;
            }
            if (Text.isSpace(c) && i >= 2 && isEnd(text.charAt(i - 2))) {
                break;
            }
            i--;
        }
        while (i < at && Text.isSpace(text.charAt(i))) {
            i++;
        }
        return i;
    }

    /**
     * The end of the sentence holding the character before {@code at} (its closing mark included),
     * looking no further than {@code ceiling}.
     */
    public static int end(String text, int at, int ceiling) {
        int n = Math.min(text.length(), ceiling);
        int i = Math.max(0, at);
        while (i < n) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r') {
                return i;
            }
            if (isEnd(c) && (i + 1 == n || Text.isSpace(text.charAt(i + 1)))) {
                return i + 1;
            }
            i++;
        }
        return n;
    }

    private static boolean isEnd(char c) {
        return c == '.' || c == '!' || c == '?';
    }
}
