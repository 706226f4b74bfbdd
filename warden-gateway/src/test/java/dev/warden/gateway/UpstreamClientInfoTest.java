package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Implementation;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Who the upstream server hears it is talking to: a connection of the client's own (a per-client
 * upstream, {@code warden wrap}) introduces itself with the client's own {@code clientInfo}, as
 * the client would directly; a connection shared by several clients says it is the gateway.
 */
class UpstreamClientInfoTest {

    private final McpServer server = McpServer.builder("notes", "1.0.0")
            .tool(ToolSpec.builder("read").handler(c -> ToolResult.text("ok")).build())
            .build();
    /** The clientInfo of every initialize the upstream received. */
    private final List<JsonNode> heard = new CopyOnWriteArrayList<>();
    private Gateway gateway;
    private McpClient client;

    private void start(boolean perClient) {
        Upstream u = Upstream.builder("notes", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return new Heard(pair.left());
        }).perClient(perClient).reconnect(ReconnectPolicy.none()).build();
        gateway = Gateway.builder().upstream(u).build();
        client = McpClient.builder(new Implementation("claude-desktop", "0.9.1", Optional.of("Claude")))
                .protocolVersion(ProtocolVersion.latestSessionBased()).connect(ViaGateway.to(gateway));
    }

    @AfterEach
    void stop() {
        client.close();
        gateway.close();
    }

    @Test
    void aPerClientUpstreamHearsTheClientsOwnName() {
        start(true);

        assertThat(heard).singleElement().satisfies(info -> {
            assertThat(info.path("name").asString()).isEqualTo("claude-desktop");
            assertThat(info.path("version").asString()).isEqualTo("0.9.1");
            assertThat(info.path("title").asString()).isEqualTo("Claude");
        });
    }

    @Test
    void aSharedUpstreamHearsTheGatewaysName() {
        start(false);

        assertThat(heard).singleElement().satisfies(info ->
                assertThat(info.path("name").asString()).isEqualTo("warden-gateway"));
    }

    /** The upstream's side of the wire, noting each initialize's clientInfo on its way. */
    private final class Heard implements Transport {
        private final Transport inner;

        Heard(Transport inner) {
            this.inner = inner;
        }

        @Override
        public void start(Listener listener) {
            inner.start(listener);
        }

        @Override
        public void send(String frame) {
            JsonNode message = Json.mapper().readTree(frame);
            if ("initialize".equals(message.path("method").asString(""))) {
                heard.add(message.at("/params/clientInfo"));
            }
            inner.send(frame);
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
