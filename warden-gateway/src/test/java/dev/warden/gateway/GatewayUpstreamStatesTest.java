package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Limits;
import dev.warden.gateway.config.Upstream;
import dev.warden.gateway.view.UpstreamState;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What an operator's console reads of the gateway's upstreams: their state now, read only. */
class GatewayUpstreamStatesTest {

    @Test
    void eachUpstreamsBreakerAndConnectionsAsTheyAreNow() {
        McpServer server = McpServer.builder("crm", "1.0.0").incidents(IncidentSink.all())
                .tool(ToolSpec.builder("lookup").handler(c -> ToolResult.text("found")).build()).build();
        Upstream crm = Upstream.builder("crm", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return pair.left();
        }).limits(Limits.ofDefaults()).reconnect(ReconnectPolicy.none()).build();
        try (Gateway gateway = Gateway.builder().upstream(crm).incidents(IncidentSink.all()).build()) {
            assertThat(gateway.upstreamStates()).as("before any client: nothing connected").containsExactly(
                    new UpstreamState("crm", "http", false, UpstreamState.Breaker.CLOSED, Optional.empty(), 0,
                            Limits.ofDefaults().maxConnections(), false, Optional.empty()));

            try (McpClient client = McpClient.builder("model", "1").connect(ViaGateway.to(gateway))) {
                assertThat(client.callTool("lookup", Json.object()).isError()).isFalse();

                UpstreamState now = gateway.upstreamStates().get(0);
                assertThat(now.connected()).isTrue();
                // the connections the gateway holds for this client (it may open one per set of client capabilities)
                assertThat(now.connections()).isBetween(1, now.maxConnections());
                assertThat(now.breaker()).isEqualTo(UpstreamState.Breaker.CLOSED);
            }
        }
    }
}
