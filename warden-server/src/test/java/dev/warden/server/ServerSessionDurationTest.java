package dev.warden.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.telemetry.McpNames;
import dev.warden.telemetry.McpTelemetry;
import dev.warden.testkit.otel.InMemoryTelemetry;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The SDK server times each session it serves: {@code mcp.server.session.duration}, once it closes. */
class ServerSessionDurationTest {

    private final InMemoryTelemetry traces = new InMemoryTelemetry();
    private final McpServer server = McpServer.builder("crm", "1.0.0").telemetry(McpTelemetry.of(traces.sdk()))
            .tool(ToolSpec.builder("lookup").handler(c -> ToolResult.text("found")).build())
            .build();

    @AfterEach
    void close() {
        traces.close();
    }

    @Test
    void aClosedSessionIsMeasuredWithItsVersion() throws Exception {
        String version = ProtocolVersion.latestSessionBased().wire();
        TestClient client = TestClient.initialized(server, version);
        assertThat(traces.metric(McpNames.SERVER_SESSION_DURATION)).isEmpty(); // open: not yet

        client.connection().close();
        client.connection().closed().join();

        HistogramPointData point = traces.awaitMetric(McpNames.SERVER_SESSION_DURATION)
                .getHistogramData().getPoints().iterator().next();
        assertThat(point.getCount()).isEqualTo(1);
        assertThat(point.getAttributes().get(McpNames.MCP_PROTOCOL_VERSION)).isEqualTo(version);
        assertThat(point.getAttributes().get(McpNames.ERROR_TYPE)).isNull();
    }
}
