package dev.warden.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.warden.core.transport.ProcessStartException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the operator's log says about a stdio upstream's stderr, at which level. */
class UpstreamStderrLogTest {

    private static final Logger LOG = Logger.getLogger(Upstream.class.getName());

    /** Each record as "LEVEL message". */
    private final List<String> logged = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record.getLevel() + " " + new SimpleFormatter().formatMessage(record));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private Level before;

    @BeforeEach
    void listen() {
        before = LOG.getLevel();
        LOG.setLevel(Level.ALL);
        LOG.addHandler(capture);
    }

    @AfterEach
    void stop() {
        LOG.removeHandler(capture);
        LOG.setLevel(before);
    }

    @Test
    void ordinaryStderrLinesStayBelowTheDefaultLevel() {
        Upstream.stderrLog("files").line("Secure MCP Filesystem Server running on stdio");

        assertThat(logged).containsExactly("INFO upstream files stderr: Secure MCP Filesystem Server running on stdio");
    }

    @Test
    void anUnaskedExitIsAWarningWithTheLastLines() {
        Upstream.stderrLog("files").exited(1, List.of("Warning: Cannot access directory, skipping",
                "Error: None of the specified directories are accessible"));

        assertThat(logged).containsExactly("WARNING upstream files exited with code 1; its last lines on stderr:\n"
                + "  Warning: Cannot access directory, skipping\n"
                + "  Error: None of the specified directories are accessible");
    }

    @Test
    void theLastLinesAreSanitized() {
        Upstream.stderrLog("github").exited(1, List.of("Bad credentials: token=ghp_0123456789abcdefghijklmnopqrstuvwxyz"));

        assertThat(logged).singleElement().asString().doesNotContain("ghp_0123456789abcdefghijklmnopqrstuvwxyz")
                .endsWith("  Bad credentials: [redacted:credential]");
    }

    @Test
    void anExitWithNothingOnStderrSaysSo() {
        Upstream.stderrLog("quiet").exited(3, List.of());

        assertThat(logged).containsExactly("WARNING upstream quiet exited with code 3; it wrote nothing to stderr");
    }

    @Test
    void aServerThatCannotBeStartedIsAWarningWithTheReason() {
        Upstream upstream = Upstream.stdio("missing", List.of("/nonexistent/mcp-server", "--token", "s3cret"));

        Throwable failure = catchThrowable(() -> upstream.connector().get());

        assertThat(failure).isInstanceOf(ProcessStartException.class);
        assertThat(logged).singleElement().asString()
                .startsWith("WARNING upstream missing could not be started: cannot start /nonexistent/mcp-server: ")
                .doesNotContain("s3cret");
    }
}
