package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.client.ToolCallResult;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A name of one installation in a tool's failure (a trigger's "ledger cnry_ledger_7f3a is closed")
 * is the server's and is redacted; a name the tool published of itself (a property of its input
 * schema, here {@code address_line2}) or one the caller sent comes back, so the model can fix its call.
 */
class GatewayServerNamesTest {

    private static final String FAILURE = "missing address_line2 for order_2024_77; ledger cnry_ledger_7f3a is closed";

    private final McpServer server = McpServer.builder("shop", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("ship").inputSchema("""
                    {"type":"object","properties":{"order":{"type":"string"},
                     "address":{"type":"object","properties":{"address_line1":{"type":"string"},
                                                              "address_line2":{"type":"string"}}}}}""")
                    .handler(c -> ToolResult.text("never")).build())
            .build();
    private Gateway gateway;
    private McpClient client;

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void aPublishedPropertyAndTheCallersValueComeBackAndTheServersNameDoesNot() {
        Upstream u = Upstream.builder("shop", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return new AnsweringCalls(pair.left(), Map.of("ship", a -> AnsweringCalls.toolError(FAILURE)),
                    new AtomicInteger());
        }).reconnect(ReconnectPolicy.none()).build();
        gateway = Gateway.builder().upstream(u).incidents(IncidentSink.all()).build();
        client = McpClient.builder("model", "1").connect(ViaGateway.to(gateway));
        client.listTools();

        ToolCallResult result = client.callTool("ship", Json.object().put("order", "order_2024_77"));

        assertThat(result.isError()).isTrue();
        assertThat(result.text()).contains("missing address_line2 for order_2024_77; ledger [redacted:name] is closed")
                .doesNotContain("cnry_ledger_7f3a");
    }
}
