package dev.warden.core.time;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Objects;

/**
 * Durations as people write them, in the configuration file and on the command line alike: one
 * grammar, so a value that works in one place works in every other. Each caller decides which
 * durations it takes (positive, or zero too) and says so in its own words.
 *
 * <pre>
 *   duration = count unit | "0" | iso
 *   count    = [ "+" | "-" ] 1*18DIGIT
 *   unit     = "ms" | "s" | "m" | "h" | "d"          ; any case
 *   iso      = an ISO-8601 duration, "PT1M", "P2D", "PT0.5S" (java.time.Duration.parse)
 * </pre>
 *
 * Blanks around the value are ignored.
 */
public final class Durations {

    private Durations() {
    }

    /**
     * The duration {@code text} writes.
     *
     * @throws IllegalArgumentException naming {@code text} when it is not a duration
     */
    public static Duration parse(String text) {
        Objects.requireNonNull(text, "text");
        String t = text.strip();
        if (!t.isEmpty() && (t.charAt(0) == 'P' || t.charAt(0) == 'p')) {
            try {
                return Duration.parse(t);
            } catch (DateTimeParseException e) {
                throw rejected(text);
            }
        }
        if (t.equals("0")) {
            return Duration.ZERO;
        }
        int digitsEnd = t.startsWith("+") || t.startsWith("-") ? 1 : 0;
        int digitsStart = digitsEnd;
        while (digitsEnd < t.length() && t.charAt(digitsEnd) >= '0' && t.charAt(digitsEnd) <= '9') {
            digitsEnd++;
        }
        if (digitsEnd == digitsStart || digitsEnd - digitsStart > 18) {
            throw rejected(text);
        }
        long count = Long.parseLong(t, 0, digitsEnd, 10);
        try {
            return switch (t.substring(digitsEnd).toLowerCase(java.util.Locale.ROOT)) {
                case "ms" -> Duration.ofMillis(count);
                case "s" -> Duration.ofSeconds(count);
                case "m" -> Duration.ofMinutes(count);
                case "h" -> Duration.ofHours(count);
                case "d" -> Duration.ofDays(count);
                default -> throw rejected(text);
            };
        } catch (ArithmeticException e) {
            throw rejected(text);
        }
    }

    private static IllegalArgumentException rejected(String text) {
        return new IllegalArgumentException("expected a duration such as 60s, 5m, 1500ms, 2h, 14d or PT1M, got \""
                + text + "\"");
    }
}
