package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import dev.warden.telemetry.McpNames;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The gateway times the sessions it serves ({@code mcp.server.session.duration}) and those it opens
 * to its upstreams ({@code mcp.client.session.duration}, with {@code warden.upstream}).
 */
class GatewaySessionDurationTest {

    private final TracedGateway traced = new TracedGateway();
    private final McpServer upstream = McpServer.builder("crm", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("lookup").handler(c -> ToolResult.text("found")).build())
            .build();

    private List<HistogramPointData> points(String metric) {
        return traced.otel.metric(metric).map(m -> List.copyOf(m.getHistogramData().getPoints())).orElse(List.of());
    }

    @Test
    void aClientsSessionAndTheUpstreamSessionsAreMeasuredOnceClosed() throws Exception {
        Upstream u = Upstream.builder("crm", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstream.connect(pair.right());
            return pair.left();
        }).timeout(Duration.ofSeconds(30)).reconnect(ReconnectPolicy.none()).build();
        Gateway gateway = Gateway.builder().upstream(u).incidents(IncidentSink.all()).telemetry(traced.telemetry)
                .build();
        String version = ProtocolVersion.latestSessionBased().wire();
        McpClient client = McpClient.builder("model", "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(ProtocolVersion.latestSessionBased()).connect(ViaGateway.to(gateway));
        client.listTools();
        assertThat(points(McpNames.SERVER_SESSION_DURATION)).isEmpty(); // still open

        client.close();
        gateway.close();
        traced.otel.awaitMetric(McpNames.SERVER_SESSION_DURATION);
        traced.otel.awaitMetric(McpNames.CLIENT_SESSION_DURATION);

        assertThat(points(McpNames.SERVER_SESSION_DURATION)).singleElement().satisfies(point -> {
            assertThat(point.getAttributes().get(McpNames.MCP_PROTOCOL_VERSION)).isEqualTo(version);
            assertThat(point.getAttributes().get(McpNames.ERROR_TYPE)).isNull();
        });
        assertThat(points(McpNames.CLIENT_SESSION_DURATION)).isNotEmpty().allSatisfy(point ->
                assertThat(point.getAttributes().get(McpNames.WARDEN_UPSTREAM)).isEqualTo("crm"));
    }
}
