package dev.warden.cli;

import dev.warden.core.time.Durations;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --drain-timeout}: on SIGTERM the gateway stops taking new calls at once and gives those in
 * flight this long to finish before it stops ({@link Draining}).
 */
final class DrainOptions {

    static final Duration DEFAULT = Duration.ofSeconds(30);

    @Option(names = "--drain-timeout", paramLabel = "DURATION", converter = Converter.class,
            description = "On SIGTERM: refuse new calls (503, Retry-After), report not ready, and give the calls "
                    + "in flight this long to finish before exiting: 30s (the default), 500ms, 2m, or 0.")
    Duration timeout = DEFAULT;

    /** {@code 30s}, {@code 500ms}, {@code 2m}, {@code 0}: the one grammar of {@link Durations}, zero or more. */
    static final class Converter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String text) {
            try {
                Duration d = Durations.parse(text);
                if (!d.isNegative()) {
                    return d;
                }
            } catch (IllegalArgumentException e) {
                // falls through to the one message below
            }
            throw new CommandLine.TypeConversionException("expected a duration such as 30s, 500ms or 2m, got \""
                    + text + "\"");
        }
    }
}
