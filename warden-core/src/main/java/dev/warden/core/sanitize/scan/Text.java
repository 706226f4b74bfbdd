package dev.warden.core.sanitize.scan;

/** Small, allocation-free helpers for the scanners. */
public final class Text {

    private Text() {
    }

    /**
     * Groups entries by the first character of their key, for scanners that test only the
     * entries that can start at the current character. Non-ASCII first characters are not indexed.
     */
    public static <T> T[][] byFirstChar(T[] entries, java.util.function.Function<T, String> key,
                                 java.util.function.IntFunction<T[]> newArray, T[][] table) {
        java.util.Map<Character, java.util.List<T>> buckets = new java.util.HashMap<>();
        for (T entry : entries) {
            buckets.computeIfAbsent(key.apply(entry).charAt(0), k -> new java.util.ArrayList<>()).add(entry);
        }
        buckets.forEach((c, list) -> table[c] = list.toArray(newArray));
        return table;
    }

    public static boolean isWordChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }

    public static boolean isAlnum(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }

    public static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    public static boolean isUpper(char c) {
        return c >= 'A' && c <= 'Z';
    }

    public static boolean isLower(char c) {
        return c >= 'a' && c <= 'z';
    }

    public static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    public static char lower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
    }

    /** Case-insensitive match of an ASCII lower-case literal at {@code at}. */
    public static boolean matchesIgnoreCase(String text, int at, String lowerLiteral) {
        int n = lowerLiteral.length();
        if (at < 0 || at + n > text.length()) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (lower(text.charAt(at + i)) != lowerLiteral.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    public static boolean matches(String text, int at, String literal) {
        return at >= 0 && text.startsWith(literal, at);
    }

    /** {@code text.indexOf(c, from)} bounded to {@code [from, to)}, so scans stay linear. */
    public static int indexOf(String text, char c, int from, int to) {
        int end = Math.min(to, text.length());
        for (int i = Math.max(0, from); i < end; i++) {
            if (text.charAt(i) == c) {
                return i;
            }
        }
        return -1;
    }

    /** {@code text.indexOf(literal, from)} bounded to {@code [from, to)}; the literal is short. */
    public static int indexOf(String text, String literal, int from, int to) {
        int n = literal.length();
        int last = Math.min(to, text.length()) - n;
        char first = literal.charAt(0);
        for (int i = Math.max(0, from); i <= last; i++) {
            if (text.charAt(i) == first && text.startsWith(literal, i)) {
                return i;
            }
        }
        return -1;
    }

    /** End of the line at {@code at}, but no further than {@code limit}. */
    public static int lineEnd(String text, int at, int limit) {
        int i = indexOf(text, '\n', at, Math.min(limit, text.length()));
        return i < 0 ? Math.min(limit, text.length()) : i;
    }

    public static int lineEnd(String text, int at) {
        int i = text.indexOf('\n', at);
        return i < 0 ? text.length() : i;
    }

    /** Shannon entropy in bits per character; used to tell a token from a word. */
    public static double entropy(String text, int start, int end) {
        int n = end - start;
        if (n <= 0) {
            return 0;
        }
        int[] counts = new int[128];
        int other = 0;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c < 128) {
                counts[c]++;
            } else {
                other++;
            }
        }
        double h = 0;
        for (int count : counts) {
            if (count > 0) {
                double p = (double) count / n;
                h -= p * (Math.log(p) / Math.log(2));
            }
        }
        if (other > 0) {
            double p = (double) other / n;
            h -= p * (Math.log(p) / Math.log(2));
        }
        return h;
    }

    /** How many ASCII digits start at {@code s}, before {@code e}. */
    public static int digitsAt(String text, int s, int e) {
        int i = s;
        while (i < e && i < text.length() && isDigit(text.charAt(i))) {
            i++;
        }
        return i - s;
    }

    /** As {@link #digitsAt}, after an optional minus sign (0 when no digit follows). */
    public static int digitsOrMinus(String text, int s, int e) {
        int i = s;
        if (i < e && i < text.length() && text.charAt(i) == '-') {
            i++;
        }
        int d = digitsAt(text, i, e);
        return d == 0 ? 0 : i + d - s;
    }

    /** {@code e}, moved back over the spaces and line breaks that end {@code [s, e)}. */
    public static int trimEnd(String text, int s, int e) {
        while (e > s && isSpace(text.charAt(e - 1))) {
            e--;
        }
        return e;
    }
}
