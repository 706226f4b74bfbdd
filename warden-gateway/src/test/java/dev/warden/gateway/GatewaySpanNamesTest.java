package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import dev.warden.telemetry.McpNames;
import io.opentelemetry.api.trace.SpanKind;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A span's name and {@code gen_ai.tool.name} carry a tool's name only when an upstream listed it
 * (the gateway's catalog, filled as it connects and by clients' listings: GatewayListingOnConnectTest):
 * a name the caller made up, up to the 256 characters a name may have, makes no span name and no
 * metric series, on the gateway's SERVER span nor on its CLIENT span.
 */
class GatewaySpanNamesTest {

    private final TracedGateway traced = new TracedGateway();
    /** A server that answers any name: whatever it says, a made-up name stays made up. */
    private final McpServer upstream = McpServer.builder("crm", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("lookup").handler(c -> ToolResult.text("found")).build())
            .build();
    private Gateway gateway;
    private McpClient client;

    @BeforeEach
    void start() {
        Upstream u = Upstream.builder("crm", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstream.connect(pair.right());
            return pair.left();
        }).timeout(Duration.ofSeconds(30)).reconnect(ReconnectPolicy.none()).build();
        gateway = Gateway.builder().upstream(u).incidents(IncidentSink.all()).telemetry(traced.telemetry).build();
        client = McpClient.builder("model", "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(ProtocolVersion.latestSessionBased()).connect(ViaGateway.to(gateway));
    }

    @AfterEach
    void stop() {
        client.close();
        gateway.close();
    }

    @Test
    void aListedToolNamesItsSpans() {
        client.listTools();
        client.callTool("lookup", Json.object());

        assertThat(traced.only(SpanKind.SERVER, "tools/call lookup").getAttributes().get(McpNames.GEN_AI_TOOL_NAME))
                .isEqualTo("lookup");
        assertThat(traced.only(SpanKind.CLIENT, "tools/call lookup").getAttributes().get(McpNames.GEN_AI_TOOL_NAME))
                .isEqualTo("lookup");
    }

    @Test
    void aNameTheCallerMadeUpNamesNoSpanEvenAfterAListing() {
        client.listTools();
        String madeUp = "x".repeat(250) + "canary";
        try {
            client.callTool(madeUp, Json.object());
        } catch (RuntimeException refused) {
            // an unknown tool may be refused: its spans are what this test is about
        }

        assertThat(traced.spans(SpanKind.SERVER, "tools/call")).hasSize(1);
        assertThat(traced.spans()).allSatisfy(span -> {
            assertThat(span.getName()).doesNotContain("canary");
            assertThat(TracedGateway.everything(span)).doesNotContain(madeUp);
        });
    }
}
