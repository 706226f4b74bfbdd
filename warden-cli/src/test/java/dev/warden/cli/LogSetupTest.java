package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class LogSetupTest {

    private final PrintStream out = System.out;
    private final PrintStream err = System.err;
    private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();

    @BeforeEach
    void capture() {
        System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setOut(out);
        System.setErr(err);
    }

    private LoggerContext configured(Map<String, String> environment) {
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new LogbackMDCAdapter());
        LogSetup setup = new LogSetup(environment);
        setup.setContext(context);
        setup.configure(context);
        return context;
    }

    @Test
    void warningsGoToStderrAsTextByDefaultAndNothingToStdout() {
        LoggerContext context = configured(Map.of());
        context.getLogger("dev.warden.gateway").warn("upstream {} crashed", "everything");

        assertThat(stderr.toString(StandardCharsets.UTF_8))
                .contains("WARN ").contains("upstream everything crashed").endsWith(System.lineSeparator());
        assertThat(stdout.size()).isZero();
    }

    @Test
    void infoIsBelowTheDefaultLevel() {
        LoggerContext context = configured(Map.of());
        context.getLogger("dev.warden.gateway").info("upstream connected");

        assertThat(stderr.size()).isZero();
    }

    @Test
    void jsonFormatWritesOneJsonObjectPerLine() throws Exception {
        LoggerContext context = configured(Map.of("WARDEN_LOG_FORMAT", "json"));
        context.getLogger("dev.warden.gateway").warn("first");
        context.getLogger("dev.warden.gateway").error("second");

        String[] lines = stderr.toString(StandardCharsets.UTF_8).strip().split("\n");
        assertThat(lines).hasSize(2);
        var mapper = JsonMapper.builder().build();
        assertThat(mapper.readTree(lines[0]).path("message").asString()).isEqualTo("first");
        assertThat(mapper.readTree(lines[1]).path("level").asString()).isEqualTo("ERROR");
        assertThat(stdout.size()).isZero();
    }

    @Test
    void levelComesFromTheEnvironmentInAnyCase() {
        LoggerContext context = configured(Map.of("WARDEN_LOG_LEVEL", "info"));
        context.getLogger("dev.warden.gateway").info("upstream connected");

        assertThat(stderr.toString(StandardCharsets.UTF_8)).contains("upstream connected");
    }

    @Test
    void anUnknownLevelKeepsWarnRatherThanFailingStartUp() {
        assertThat(new LogSetup(Map.of("WARDEN_LOG_LEVEL", "loud")).level()).isEqualTo(Level.WARN);
    }
}
