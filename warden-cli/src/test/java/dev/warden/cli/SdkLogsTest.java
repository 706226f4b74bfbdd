package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.opentelemetry.api.OpenTelemetry;
import java.net.ServerSocket;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** What the OpenTelemetry SDK logs goes to Warden's own logs, where its level and format apply. */
class SdkLogsTest {

    @Test
    void aFailedExportIsLoggedThroughWardensLogsAndNotTheJdksConsole() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort(); // nothing listens there once it is closed
        }
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        root.addAppender(logged);
        try {
            Telemetry telemetry = Telemetry.install("gateway", Map.of(
                    "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + closed,
                    "OTEL_METRICS_EXPORTER", "none",
                    "OTEL_JAVA_EXPORTER_OTLP_RETRY_DISABLED", "true"), new Properties(), false);
            OpenTelemetry otel = telemetry.openTelemetry().orElseThrow();
            otel.getTracer("test").spanBuilder("tools/call echo").startSpan().end();
            telemetry.close(); // the flush: its export fails

            assertThat(logged.list).anySatisfy(event -> {
                assertThat(event.getLoggerName()).startsWith("io.opentelemetry.exporter");
                assertThat(event.getLevel()).isEqualTo(Level.ERROR);
            });
            assertThat(TelemetrySdk.SDK_LOGS.getUseParentHandlers()).as("not printed by the JDK's console handler too")
                    .isFalse();
        } finally {
            root.detachAppender(logged);
        }
    }
}
