package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ToolCallResult;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.session.RequestOptions;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ServerConnection;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The extra upstream connections made for clients declaring other capabilities than the first
 * (for stdio, a process each) are closed once no connected client can use them and they have gone
 * unused for {@code closeIdleAfter}; the first connection, and one a connected client may still
 * use, stay. Idleness is measured by the gateway's clock, which the tests move by hand; the
 * watcher itself looks every few milliseconds (a quarter of {@code closeIdleAfter}), and a test
 * that expects a connection to stay waits for one of its passes after the move.
 */
class GatewayIdleConnectionsTest {

    /** Every session the upstream served through the gateway, in the order they were made. */
    private final List<ServerConnection> upstreamSessions = new CopyOnWriteArrayList<>();
    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
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
    private final MovableClock clock = new MovableClock();
    private Gateway gateway;

    /** Longer than any closeIdleAfter here: every connection not handed out since is idle. */
    private static final Duration PAST_IDLE = Duration.ofMinutes(1);

    private void start(Duration closeIdleAfter) {
        // Session-based only (server/discover refused), so stateless clients are bridged onto its sessions.
        Upstream u = Upstream.builder("idle", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstreamSessions.add(upstream.connect(pair.right()));
            return new RefusingMethod(pair.left(), "server/discover", "{\"code\":-32601,\"message\":\"Method not found\"}");
        }).closeIdleAfter(closeIdleAfter).timeout(Duration.ofSeconds(30)).build();
        gateway = Gateway.builder().upstream(u).incidents(IncidentSink.all()).clock(clock).build();
    }

    private McpClient client(String name, boolean roots) {
        McpClient.Builder builder = McpClient.builder(name, "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(ProtocolVersion.V2025_11_25);
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
        clock.advance(PAST_IDLE);
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
        clock.advance(PAST_IDLE);
        upstreamSessions.get(1).closed().get(30, TimeUnit.SECONDS);

        McpClient carol = client("carol", true);

        assertThat(carol.callTool("who-asks", Json.object()).text()).isEqualTo("offers: roots");
        assertThat(upstreamSessions).hasSize(3);
        assertThat(upstreamSessions.get(2).closed()).isNotDone();
    }

    @Test
    void anExtraConnectionStaysWhileAClientDeclaringItsCapabilitiesIsConnected() throws Exception {
        start(Duration.ofMillis(40));
        client("ada", false).callTool("who-asks", Json.object());
        McpClient bob = client("bob", true);
        bob.callTool("who-asks", Json.object());
        clock.advance(PAST_IDLE); // only bob's being connected keeps it

        clock.awaitWatcherPass();

        assertThat(upstreamSessions.get(1).closed()).isNotDone();
        assertThat(bob.callTool("who-asks", Json.object()).text()).isEqualTo("offers: roots");
        assertThat(upstreamSessions).hasSize(2);
    }

    @Test
    void theFirstConnectionStaysWhenItsClientsAreGone() throws Exception {
        start(Duration.ofMillis(40));
        McpClient ada = client("ada", false);
        ada.callTool("who-asks", Json.object());
        ada.close();
        // The watcher never even starts: it looks only at extra connections, and there is none.
        clock.advance(PAST_IDLE);

        assertThat(upstreamSessions.get(0).closed()).isNotDone();
        assertThat(client("bob", false).callTool("who-asks", Json.object()).text()).isEqualTo("offers: ");
        assertThat(upstreamSessions).hasSize(1);
    }

    @Test
    void aConnectionCarryingAStatelessClientsCallIsNotClosedUnderIt() throws Exception {
        start(Duration.ofMillis(40));
        // A stateless client declaring sampling only: its requests go on a session declaring just that.
        McpClient newest = McpClient.builder("newest", "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(ProtocolVersion.V2026_07_28)
                .onSampling(params -> Json.object())
                .connect(ViaGateway.to(gateway));
        clients.add(newest);
        CompletableFuture<ToolCallResult> call =
                newest.callToolAsync("wait", Json.object(), RequestOptions.ofToolCallDefaults());
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
        // The newest session declaring sampling alone carries the call.
        ServerConnection itsSession = upstreamSessions.stream()
                .filter(c -> c.clientCapabilities().map(caps -> caps.size() == 1 && caps.has("sampling")).orElse(false))
                .reduce((older, newer) -> newer).orElseThrow();
        clock.advance(PAST_IDLE); // only the call in flight keeps it

        clock.awaitWatcherPass();

        assertThat(itsSession.closed()).isNotDone();
        release.countDown();
        assertThat(call.get(30, TimeUnit.SECONDS).text()).isEqualTo("done");
        // Its call over, a stateless client holds nothing: the session goes once idle.
        clock.advance(PAST_IDLE);
        itsSession.closed().get(30, TimeUnit.SECONDS);
    }
}
