package dev.warden.cli;

import dev.warden.core.time.Durations;
import java.time.Duration;
import picocli.CommandLine.Option;

/** {@code --since}: how far back a listing reaches (incidents, audit records). */
final class SinceOption {

    @Option(names = "--since", paramLabel = "AGE", defaultValue = "24h",
            description = "How far back: a number with s, m, h or d (default: ${DEFAULT-VALUE}).")
    String since;

    /**
     * The age given, in the one grammar of {@link Durations} ({@code 90m}, {@code 2d}…).
     *
     * @throws IllegalArgumentException when it is no duration
     */
    Duration age() {
        if (since == null) {
            throw new IllegalArgumentException("no age");
        }
        return Durations.parse(since);
    }
}
