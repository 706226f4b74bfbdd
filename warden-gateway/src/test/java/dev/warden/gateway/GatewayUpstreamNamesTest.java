package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.client.McpClient;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Several upstreams' tools share one list as {@code <upstream>__<name>}; a prefixed name belongs
 * to one upstream only. Two upstreams whose prefixed names could be the same string ({@code h}
 * and {@code h_}: {@code h___x} is h's {@code _x} and h_'s {@code x}) are refused at start, and
 * any other name, whatever it ends with, reaches its own tools.
 */
class GatewayUpstreamNamesTest {

    private Gateway gateway;
    private McpClient client;

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void upstreamsWhosePrefixedNamesCouldCollideAreRefusedNamingBoth() {
        Gateway.Builder b = Gateway.builder().incidents(IncidentSink.all())
                .upstream(upstream("h", "x")).upstream(upstream("h_", "x"));
        assertThatThrownBy(b::build).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"h\"").hasMessageContaining("\"h_\"").hasMessageContaining("h___x");
    }

    @Test
    void aNameEndingInAnUnderscoreReachesItsOwnTools() {
        start(upstream("h_", "x"), upstream("g", "y"));
        assertThat(client.listTools().stream().map(t -> t.name()).sorted().toList())
                .containsExactly("g__y", "h___x");
        assertThat(client.callTool("h___x", Json.object()).content().toString()).contains("x of h_");
    }

    @Test
    void aToolNameContainingTheSeparatorReachesItsUpstream() {
        start(upstream("h", "a__b"), upstream("g", "y"));
        assertThat(client.callTool("h__a__b", Json.object()).content().toString()).contains("a__b of h");
    }

    private void start(Upstream... upstreams) {
        Gateway.Builder b = Gateway.builder().incidents(IncidentSink.all());
        List.of(upstreams).forEach(b::upstream);
        gateway = b.build();
        client = McpClient.builder("c", "1").requestTimeout(Duration.ofSeconds(30)).connect(ViaGateway.to(gateway));
    }

    private static Upstream upstream(String name, String tool) {
        McpServer server = McpServer.builder(name, "1.0.0").incidents(IncidentSink.all())
                .tool(ToolSpec.builder(tool).handler(c -> ToolResult.text(tool + " of " + name)).build()).build();
        return Upstream.of(name, () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return pair.left();
        });
    }
}
