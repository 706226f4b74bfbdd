package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Limits;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A per-client upstream starts a connection (for stdio, a process) per client connection: no more
 * than its {@code maxConnections} at once; one more client is refused with a clear error, and a
 * place that a client leaves serves the next.
 */
class GatewayUpstreamConnectionsTest {

    private final McpServer upstream = McpServer.builder("own", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("ok").handler(c -> ToolResult.text("fine")).build())
            .build();
    private final AtomicInteger started = new AtomicInteger();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<McpClient> clients = new ArrayList<>();
    private Gateway gateway;

    @AfterEach
    void stop() {
        clients.forEach(McpClient::close);
        if (gateway != null) {
            gateway.close();
        }
    }

    private void start(int maxConnections) {
        Upstream u = Upstream.builder("own", () -> {
            started.incrementAndGet();
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstream.connect(pair.right());
            return pair.left();
        }).perClient(true).reconnect(ReconnectPolicy.none())
                .limits(Limits.ofDefaults().withMaxConnections(maxConnections)).build();
        gateway = Gateway.builder().upstream(u).incidents(IncidentSink.all()).metrics(registry).build();
    }

    private McpClient client() {
        // Session-based: a stateless client's requests use the shared connection, whatever perClient says.
        McpClient c = McpClient.builder("model", "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(ProtocolVersion.latestSessionBased())
                .reconnect(ReconnectPolicy.none()).connect(ViaGateway.to(gateway));
        clients.add(c);
        return c;
    }

    @Test
    void aPerClientUpstreamRunsNoMoreConnectionsThanItsLimitAndRefusesTheNextClearly() {
        start(2);
        client();
        client();

        Throwable refused = catchThrowable(this::client);

        Throwable cause = refused;
        while (cause != null && !(cause instanceof PeerErrorException)) {
            cause = cause.getCause();
        }
        assertThat(cause).as("the gateway's answer to initialize").isInstanceOf(PeerErrorException.class);
        JsonRpcError error = ((PeerErrorException) cause).error();
        assertThat(error.data().map(Object::toString).orElse("")).contains("RATE_LIMITED").contains("ref_");
        assertThat(error.message()).contains("maxConnections");
        assertThat(started.get()).isEqualTo(2);
        assertThat(registry.get("warden_gateway_upstream_refusals").tag("upstream", "own")
                .tag("limit", "maxConnections").counter().count()).isEqualTo(1.0);
    }

    @Test
    void aPlaceAClientLeavesServesTheNextClient() throws Exception {
        start(1);
        McpClient first = client();
        first.close();

        // A hang guard, not a speed check: the first client's connection is closed in the background.
        // A bounded retry, not a latch: its place is given back inside the gateway after the upstream
        // connection closed, and nothing outside the gateway hears of that moment (the gauge is read,
        // not pushed); the retries are the event this test checks (a place that comes back).
        McpClient next = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (next == null && System.nanoTime() < deadline) {
            try {
                next = client();
            } catch (Exception stillHeld) {
                Thread.sleep(20);
            }
        }
        assertThat(next).isNotNull();
        assertThat(next.callTool("ok", Json.object()).text()).isEqualTo("fine");
        assertThat(registry.get("warden_gateway_upstream_connections").tag("upstream", "own").gauge().value())
                .isEqualTo(1.0);
    }
}
