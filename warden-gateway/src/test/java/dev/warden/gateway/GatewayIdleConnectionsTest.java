package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.core.error.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.server.McpServer;
import dev.warden.server.ServerConnection;
import dev.warden.server.tool.ToolResult;
import dev.warden.server.tool.ToolSpec;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The extra upstream connections made for clients declaring other capabilities than the first
 * (for stdio, a process each) are closed once no connected client can use them and they have gone
 * unused for {@code closeIdleAfter}; the first connection, and one a connected client may still
 * use, stay.
 */
class GatewayIdleConnectionsTest {

    /** Every session the upstream served through the gateway, in the order they were made. */
    private final List<ServerConnection> upstreamSessions = new CopyOnWriteArrayList<>();
    private final java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
    private final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    private final McpServer upstream = McpServer.builder("idle", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("wait").handler(call -> {
                entered.countDown();
                release.await(30, TimeUnit.SECONDS);
                return ToolResult.text("done");
            }).build())
            .tool(ToolSpec.builder("who-asks").handler(call -> ToolResult.text("offers: " + call.context()
                    .clientCapabilities().map(c -> String.join(",", c.propertyNames())).orElse("?"))).build())
            .build();
    private final List<McpClient> clients = new CopyOnWriteArrayList<>();
    private Gateway gateway;

    private void start(Duration closeIdleAfter) {
        // Session-based only (server/discover refused), so stateless clients are bridged onto its sessions.
        Upstream u = Upstream.of("idle", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstreamSessions.add(upstream.connect(pair.right()));
            return new RefusingMethod(pair.left(), "server/discover", "{\"code\":-32601,\"message\":\"Method not found\"}");
        }).withCloseIdleAfter(closeIdleAfter).withTimeout(Duration.ofSeconds(30));
        gateway = Gateway.builder().upstream(u).incidents(IncidentSink.all()).build();
    }

    private McpClient client(String name, boolean roots) {
        McpClient.Builder builder = McpClient.builder(name, "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(dev.warden.core.mcp.ProtocolVersion.V2025_11_25);
        if (roots) {
            builder.onRootsList(params -> {
                ObjectNode none = Json.object();
                none.putArray("roots");
                return none;
            });
        }
        McpClient c = builder.connect(ViaGateway.to(gateway));
        clients.add(c);
        return c;
    }

    @AfterEach
    void stop() {
        clients.forEach(McpClient::close);
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void anExtraConnectionNoClientCanUseIsClosedOnceIdle() throws Exception {
        start(Duration.ofMillis(50));
        McpClient ada = client("ada", false);
        assertThat(ada.callTool("who-asks", Json.object()).text()).isEqualTo("offers: ");
        McpClient bob = client("bob", true);
        assertThat(bob.callTool("who-asks", Json.object()).text()).isEqualTo("offers: roots");
        assertThat(upstreamSessions).hasSize(2);

        bob.close();
        upstreamSessions.get(1).closed().get(30, TimeUnit.SECONDS);

        assertThat(upstreamSessions.get(0).closed()).isNotDone();
        assertThat(ada.callTool("who-asks", Json.object()).text()).isEqualTo("offers: ");
        assertThat(upstreamSessions).hasSize(2);
    }

    @Test
    void aClientThatNeedsAClosedConnectionAgainGetsANewOne() throws Exception {
        start(Duration.ofMillis(50));
        client("ada", false).callTool("who-asks", Json.object());
        McpClient bob = client("bob", true);
        bob.callTool("who-asks", Json.object());
        bob.close();
        upstreamSessions.get(1).closed().get(30, TimeUnit.SECONDS);

        McpClient carol = client("carol", true);

        assertThat(carol.callTool("who-asks", Json.object()).text()).isEqualTo("offers: roots");
        assertThat(upstreamSessions).hasSize(3);
        assertThat(upstreamSessions.get(2).closed()).isNotDone();
    }

    @Test
    void anExtraConnectionStaysWhileAClientDeclaringItsCapabilitiesIsConnected() throws Exception {
        start(Duration.ofMillis(1));
        client("ada", false).callTool("who-asks", Json.object());
        McpClient bob = client("bob", true);
        bob.callTool("who-asks", Json.object());
        Thread.sleep(20); // more than closeIdleAfter: only bob's being connected keeps it

        gateway.closeIdleConnections();

        assertThat(upstreamSessions.get(1).closed()).isNotDone();
        assertThat(bob.callTool("who-asks", Json.object()).text()).isEqualTo("offers: roots");
        assertThat(upstreamSessions).hasSize(2);
    }

    @Test
    void theFirstConnectionStaysWhenItsClientsAreGone() throws Exception {
        start(Duration.ofMillis(1));
        McpClient ada = client("ada", false);
        ada.callTool("who-asks", Json.object());
        ada.close();
        Thread.sleep(20);

        gateway.closeIdleConnections();

        assertThat(upstreamSessions.get(0).closed()).isNotDone();
        assertThat(client("bob", false).callTool("who-asks", Json.object()).text()).isEqualTo("offers: ");
        assertThat(upstreamSessions).hasSize(1);
    }

    @Test
    void aConnectionCarryingAStatelessClientsCallIsNotClosedUnderIt() throws Exception {
        start(Duration.ofMillis(1));
        // A stateless client declaring sampling only: its requests go on a session declaring just that.
        McpClient newest = McpClient.builder("newest", "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(dev.warden.core.mcp.ProtocolVersion.V2026_07_28)
                .onSampling(params -> Json.object())
                .connect(ViaGateway.to(gateway));
        clients.add(newest);
        java.util.concurrent.CompletableFuture<dev.warden.client.ToolCallResult> call =
                newest.callToolAsync("wait", Json.object(), dev.warden.core.session.RequestOptions.ofToolCallDefaults());
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
        // The newest session declaring sampling alone carries the call (the watcher may have closed
        // and replaced an earlier one while nothing was in flight).
        ServerConnection itsSession = upstreamSessions.stream()
                .filter(c -> c.clientCapabilities().map(caps -> caps.size() == 1 && caps.has("sampling")).orElse(false))
                .reduce((older, newer) -> newer).orElseThrow();
        Thread.sleep(20); // more than closeIdleAfter: only the call in flight keeps it

        gateway.closeIdleConnections();

        assertThat(itsSession.closed()).isNotDone();
        release.countDown();
        assertThat(call.get(30, TimeUnit.SECONDS).text()).isEqualTo("done");
        // Its call over, a stateless client holds nothing: the session goes once idle.
        itsSession.closed().get(30, TimeUnit.SECONDS);
    }
}
