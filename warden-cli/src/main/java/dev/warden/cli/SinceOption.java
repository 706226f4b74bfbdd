package dev.warden.cli;

import dev.warden.core.time.Durations;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --since} and {@code --until}: the period a listing reads (incidents, audit records). Each is
 * an age back from now ({@code 90m}, {@code 2d}) or a time ({@code 2026-11-29T10:15:00Z}), so an
 * operator who knows when a client failed reads that hour rather than the newest since.
 */
final class SinceOption {

    @Option(names = "--since", paramLabel = "AGE|TIME", defaultValue = "24h",
            description = "From when: an age such as 90m or 2d, or a time such as 2026-11-29T10:15:00Z "
                    + "(default: ${DEFAULT-VALUE}).")
    String since;

    @Option(names = "--until", paramLabel = "AGE|TIME",
            description = "Until when (not included), as --since; default: now.")
    String until;

    /**
     * Where the period starts.
     *
     * @throws IllegalArgumentException when {@code --since} is neither an age nor a time
     */
    Instant start(Instant now) {
        if (since == null) {
            throw new IllegalArgumentException("no --since");
        }
        return instant(since, now);
    }

    /**
     * Where the period ends, when {@code --until} was given.
     *
     * @throws IllegalArgumentException when {@code --until} is neither an age nor a time
     */
    Optional<Instant> end(Instant now) {
        return Optional.ofNullable(until).map(u -> instant(u, now));
    }

    /** The one sentence both commands print for a bad period. */
    static String usage() {
        return "--since and --until are an age (a number followed by s, m, h or d, e.g. 90m) or a time "
                + "(e.g. 2026-11-29T10:15:00Z)";
    }

    private static Instant instant(String value, Instant now) {
        try {
            return now.minus(Durations.parse(value));
        } catch (IllegalArgumentException notAnAge) {
            try {
                return Instant.parse(value);
            } catch (DateTimeParseException notATime) {
                throw new IllegalArgumentException("neither an age nor a time: --since/--until", notATime);
            }
        }
    }
}
