package dev.warden.bench;

import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;

/**
 * Hostile inputs against the sanitizer: each pattern repeated to 64 KiB and to 1 MiB, timed after
 * warm-up. A ratio near 16 is linear; a quadratic scan shows as a ratio in the hundreds. Not JMH:
 * a quick screen over many patterns, whose slowest cases the JMH benchmark then measures properly.
 */
public final class LinearityCheck {

    private static final String[] PATTERNS = {"::", "a.", "1.", "-----BEGIN ", "x://a:b", "SELECT a ", "select a from ",
            "at ", "/a", "ignore ", "eyJa.", "password= ", "\"password\": \"", "Traceback (most recent call last):\n",
            "#0 ", "environ({", "localhost:", "fe80:", "[", "<", "ORA-00001 ", "does not exist ",
            "relation \"x\" does not exist\n", "C:\\", "\\\\", "~/", "file:/", "Key (", "DETAIL: x\n", "ERROR 1062 ",
            "\u001b[", "\uD800", "Authorization: '", "AKIA", "10.0.0.1:", "x.internal.",
            // the shared word index: joined tokens, leading dashes, separators, non-Latin-1 text
            "-", "a-", "-a", "_a ", "a=", "k: ", "BEGIN ", "\u20ac?", "\uD83D\uDE00a",
            // database messages read by shape: prefixes, slots, added lines
            "near \"", "connection to server at \"", "ERROR:  column \"a\" does not exist\nLINE 1: ", "(1054, \"",
            "SQLSTATE[42S22]: ", "Msg 208, Level 16, State 1, Line 1\n", "permission denied for ", "Key (a)=(",
            "Failing row contains (", "division by zero ", "Duplicate entry '", "psycopg2.errors.X: ", "HINT:  \n"};

    private LinearityCheck() {
    }

    public static void main(String[] args) {
        Sanitizer sanitizer = Sanitizer.builder().maxOutputChars(1 << 23).build();
        System.out.println("| pattern | 64 KiB (ms) | 1 MiB (ms) | ratio (16 = linear) |");
        System.out.println("|---|---:|---:|---:|");
        for (String pattern : PATTERNS) {
            double[] ms = new double[2];
            int[] sizes = {1 << 16, 1 << 20};
            for (int k = 0; k < 2; k++) {
                String text = pattern.repeat(sizes[k] / pattern.length());
                for (int w = 0; w < 3; w++) {
                    sanitizer.sanitize(text, Policy.REDACT);
                }
                long start = System.nanoTime();
                for (int r = 0; r < 3; r++) {
                    sanitizer.sanitize(text, Policy.REDACT);
                }
                ms[k] = (System.nanoTime() - start) / 3e6;
            }
            String shown = pattern.replace("\n", "\\n").replace("\u001b", "ESC").replace("\uD800", "\\uD800")
                    .replace("\u20ac", "\\u20ac").replace("\uD83D\uDE00", "\\uD83D\\uDE00").replace("|", "\\|");
            System.out.printf("| `%s` | %.1f | %.1f | %.1f |%n", shown, ms[0], ms[1], ms[1] / ms[0]);
        }
    }
}
