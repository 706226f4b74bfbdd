package dev.warden.gateway.config;

import dev.warden.core.time.Durations;
import java.time.Duration;
import java.util.Locale;

/** Sizes and durations as the configuration (and the command line) writes them; see {@link GatewayConfig#size} and {@link GatewayConfig#duration}. */
final class Quantities {

    private Quantities() {
    }

    /** A size: a number of bytes, or one with a unit ({@code 512KiB}, {@code 256MiB}, {@code 1GiB}; {@code KB}, {@code MB}, {@code GB} are powers of ten). */
    static long size(String text, String path) {
        String t = text.trim();
        int end = 0;
        while (end < t.length() && Character.isDigit(t.charAt(end))) {
            end++;
        }
        long factor = switch (t.substring(end).trim().toLowerCase(Locale.ROOT)) {
            case "", "b" -> 1L;
            case "kib", "k" -> 1L << 10;
            case "mib", "m" -> 1L << 20;
            case "gib", "g" -> 1L << 30;
            case "kb" -> 1_000L;
            case "mb" -> 1_000_000L;
            case "gb" -> 1_000_000_000L;
            default -> -1L;
        };
        if (end == 0 || end > 12 || factor < 0) {
            throw new ConfigException(path + ": expected a size such as 256MiB, 1GiB or a number of bytes");
        }
        return Long.parseLong(t.substring(0, end)) * factor;
    }

    /** A positive duration in the one grammar of {@link Durations}: {@code 60s}, {@code 1500ms}, {@code PT1M}… */
    static Duration duration(String text, String path) {
        Duration d;
        try {
            d = Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(path + ": expected a duration such as 60s, 5m or 1500ms");
        }
        if (d.isNegative() || d.isZero()) {
            throw new ConfigException(path + ": expected a positive duration such as 60s, 5m or 1500ms");
        }
        return d;
    }
}
