package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ServerConnection;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A server's {@code roots/list} never leaves it broader than a direct client would: where the
 * gateway serves one client (a per-client upstream, {@code warden wrap}) the question goes to that
 * client, even with no call in flight (at start, after {@code roots/list_changed}); where clients
 * share the server, the answer is the roots configured for it, or none: whatever the server hears
 * there, every client on it can read back, so no client's own roots are ever the answer.
 */
class GatewayRootsTest {

    private final McpServer server = McpServer.builder("files", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("ok").handler(c -> ToolResult.text("fine")).build())
            .tool(ToolSpec.builder("roots-now").handler(c -> ToolResult.text(c.context()
                    .requestClient("roots/list", Json.object()).path("roots").toString())).build())
            .build();
    /** The server's side of each upstream connection, newest last. */
    private final List<ServerConnection> connections = new CopyOnWriteArrayList<>();
    private final List<McpClient> clients = new ArrayList<>();
    private Gateway gateway;

    private Upstream upstream() {
        return Upstream.of("files", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            connections.add(server.connect(pair.right()));
            return pair.left();
        });
    }

    private McpClient client(String... roots) {
        // Session-based: a stateless client holds no connection a server could ask between its requests.
        McpClient c = McpClient.builder("model", "1").protocolVersion(ProtocolVersion.latestSessionBased())
                .onRootsList(p -> rootsOf(roots)).connect(ViaGateway.to(gateway));
        clients.add(c);
        return c;
    }

    private static ObjectNode rootsOf(String... uris) {
        ObjectNode answer = Json.object();
        for (String uri : uris) {
            answer.withArray("roots").addObject().put("uri", uri).put("name", "a root");
        }
        if (uris.length == 0) {
            answer.putArray("roots");
        }
        return answer;
    }

    /** What the server hears when it asks for roots now, on its newest connection (no call in flight). */
    private List<String> serverAsksForRoots() throws Exception {
        JsonNode answer = connections.get(connections.size() - 1).requestClient("roots/list", Json.object());
        List<String> uris = new ArrayList<>();
        answer.path("roots").forEach(r -> uris.add(r.path("uri").asString()));
        return uris;
    }

    @AfterEach
    void stop() {
        clients.forEach(McpClient::close);
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void aPerClientServerAskingWithNoCallInFlightHearsItsClientsRoots() throws Exception {
        gateway = Gateway.builder().upstream(upstream().toBuilder().perClient(true).build()).incidents(IncidentSink.all())
                .build();
        client("file:///home/ada/project");
        assertThat(serverAsksForRoots()).containsExactly("file:///home/ada/project");
    }

    @Test
    void aSharedServerNeverHearsAClientsRootsAnotherClientCouldReadBack() throws Exception {
        gateway = Gateway.builder().upstream(upstream()).incidents(IncidentSink.all()).build();
        client("file:///srv", "file:///tmp/scratch");
        client("file:///srv/data", "file:///home/bob");
        assertThat(serverAsksForRoots()).isEmpty();
    }

    @Test
    void aClientCannotReadAnotherClientsRootsThroughASharedServer() throws Exception {
        gateway = Gateway.builder().upstream(upstream()).incidents(IncidentSink.all()).build();
        McpClient ada = client("file:///home");
        McpClient bob = client("file:///home/bob/secret-project");
        assertThat(bob.callTool("roots-now", Json.object()).text()).isEqualTo("[]");

        String read = ada.callTool("roots-now", Json.object()).text();

        assertThat(read).doesNotContain("bob").doesNotContain("secret-project");
    }

    @Test
    void aSharedServerWithConfiguredRootsHearsThoseWhateverItsClientsSay() throws Exception {
        gateway = Gateway.builder()
                .upstream(upstream().toBuilder().roots(Optional.of(List.of("file:///srv/shared"))).build())
                .incidents(IncidentSink.all()).build();
        client("file:///");
        assertThat(serverAsksForRoots()).containsExactly("file:///srv/shared");
    }
}
