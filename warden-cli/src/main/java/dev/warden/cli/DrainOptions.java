package dev.warden.cli;

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

    /** {@code 30s}, {@code 500ms}, {@code 2m}, {@code 0}: a count and a unit, as the configuration file writes them. */
    static final class Converter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String text) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,9})(ms|s|m)?").matcher(text.strip());
            if (!m.matches() || (m.group(2) == null && !"0".equals(m.group(1)))) {
                throw new CommandLine.TypeConversionException("expected a duration such as 30s, 500ms or 2m, got \""
                        + text + "\"");
            }
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2) == null ? "s" : m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofSeconds(n);
            };
        }
    }
}
