package dev.warden.gateway.config;

import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import dev.warden.core.transport.ProcessStartException;
import dev.warden.core.transport.StderrSink;
import java.util.List;

/**
 * What a stdio upstream writes to stderr, and why it could not start, as the log keeps it: under
 * its configured name, sanitized (see {@link Upstream#stderrLog(String)}).
 */
final class StderrLog {

    private static final System.Logger LOG = System.getLogger(Upstream.class.getName());
    /** A server's stderr is logged, never parsed; what it leaks there is redacted first. */
    private static final Sanitizer STDERR = Sanitizer.ofDefaults();

    private StderrLog() {
    }

    static StderrSink of(String name) {
        return new StderrSink() {
            @Override
            public void line(String line) {
                LOG.log(System.Logger.Level.INFO, "upstream {0} stderr: {1}", name,
                        STDERR.sanitize(line, Policy.REDACT).output());
            }

            @Override
            public void exited(int exitCode, List<String> lastLines) {
                StringBuilder lines = new StringBuilder();
                for (String line : lastLines) {
                    lines.append("\n  ").append(STDERR.sanitize(line, Policy.REDACT).output());
                }
                LOG.log(System.Logger.Level.WARNING, "upstream {0} exited with code {1}; {2}", name,
                        String.valueOf(exitCode), lastLines.isEmpty() ? "it wrote nothing to stderr"
                                : "its last lines on stderr:" + lines);
            }
        };
    }

    /** A process that could not be started: the reason, sanitized (it may hold the command line). */
    static void notStarted(String name, ProcessStartException e) {
        LOG.log(System.Logger.Level.WARNING, "upstream {0} could not be started: {1}", name,
                STDERR.sanitize(e.getMessage(), Policy.REDACT).output());
    }
}
