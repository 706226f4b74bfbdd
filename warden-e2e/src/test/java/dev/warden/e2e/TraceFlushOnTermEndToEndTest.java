package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.testkit.otlp.OtlpReceiver;
import dev.warden.testkit.otlp.ReceivedSpan;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code warden gateway} stopped by SIGTERM sends the spans it still holds: its batch would wait ten
 * minutes, so only the flush when the drained command returns can deliver them before it exits 0.
 */
class TraceFlushOnTermEndToEndTest {

    static final Duration GUARD = Duration.ofSeconds(60);

    @Test
    void theGatewaysLastSpansLeaveWhenSigtermStopsIt() throws Exception {
        try (OtlpReceiver receiver = OtlpReceiver.start()) {
            HttpGateway gateway = HttpGateway.start("""
                    http: { port: 0 }
                    upstreams:
                      demo:
                        command: [%s, demo]
                        env: { WARDEN_NO_REBUILD: "1" }
                    """.formatted(Processes.LAUNCHER), 1,
                    Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint(), "OTEL_BSP_SCHEDULE_DELAY", "600000",
                            "OTEL_METRICS_EXPORTER", "none", "WARDEN_NO_REBUILD", "1"));
            try {
                Processes.Result result = Processes.run(Processes.node("traced-client.mjs", gateway.url(),
                        receiver.endpoint(), "search_catalog", "{\"query\":\"desk\"}"));
                assertThat(result.exitCode()).as(result.stderr()).isZero();
                assertThat(receiver.spans()).noneMatch(s -> s.serviceName().equals("warden-gateway"));

                ProcessHandle.of(gateway.peer().pid()).orElseThrow().destroy(); // SIGTERM
                assertThat(gateway.peer().awaitExit(GUARD)).isZero();
            } finally {
                gateway.stop();
            }
            List<ReceivedSpan> spans = receiver.awaitSpans(
                    all -> all.stream().anyMatch(s -> s.serviceName().equals("warden-gateway") && s.kind().equals("SERVER")
                            && s.name().equals("tools/call search_catalog")), GUARD);
            assertThat(spans).anyMatch(s -> s.serviceName().equals("warden-gateway") && s.kind().equals("CLIENT")
                    && s.name().equals("tools/call search_catalog"));
        }
    }
}
