package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.CallOptions;
import dev.warden.client.McpClient;
import dev.warden.client.ToolCallResult;
import dev.warden.core.error.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.server.McpServer;
import dev.warden.server.tool.ToolResult;
import dev.warden.server.tool.ToolSpec;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * An upstream's own request to a client (here sampling) while two session-based clients have
 * calls in flight: a shared upstream cannot tell whose it is and refuses it; a per-client upstream
 * always knows.
 */
class GatewayRoutingTest {

    private final CyclicBarrier bothInFlight = new CyclicBarrier(2);
    private final CyclicBarrier bothAsked = new CyclicBarrier(2);
    private final McpServer upstream = McpServer.builder("asking", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("ask").handler(call -> {
                bothInFlight.await(30, TimeUnit.SECONDS);
                ObjectNode params = Json.object();
                params.putArray("messages").addObject().put("role", "user").putObject("content")
                        .put("type", "text").put("text", "who are you?");
                params.put("maxTokens", 5);
                ObjectNode answer = null;
                Exception failed = null;
                try {
                    answer = call.context().requestClient("sampling/createMessage", params);
                } catch (Exception e) {
                    failed = e;
                }
                // Neither call ends before both have asked: both stay in flight while the gateway routes.
                bothAsked.await(30, TimeUnit.SECONDS);
                if (failed != null) {
                    throw failed;
                }
                return ToolResult.text(answer.path("content").path("text").asString());
            }).build())
            .build();
    private Gateway gateway;
    private McpClient ada;
    private McpClient bob;

    private void start(boolean perClient) {
        Upstream u = Upstream.of("asking", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstream.connect(pair.right());
            return pair.left();
        }).withPerClient(perClient).withTimeout(Duration.ofSeconds(30));
        gateway = Gateway.builder().upstream(u).incidents(IncidentSink.all()).build();
        ada = client("ada");
        bob = client("bob");
    }

    private McpClient client(String name) {
        // Session-based clients: each has a connection that can own an upstream (stateless ones share them).
        return McpClient.builder(name, "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(dev.warden.core.mcp.ProtocolVersion.V2025_11_25).onSampling(params -> {
            ObjectNode result = Json.object();
            result.put("role", "assistant");
            result.putObject("content").put("type", "text").put("text", name);
            result.put("model", "m");
            return result;
        }).connect(() -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            gateway.connect(pair.right());
            return pair.left();
        });
    }

    @AfterEach
    void stop() {
        bothInFlight.reset();
        bothAsked.reset();
        for (McpClient c : new McpClient[] {ada, bob}) {
            if (c != null) {
                c.close();
            }
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    private ToolCallResult[] callBoth() throws Exception {
        CompletableFuture<ToolCallResult> a = ada.callToolAsync("ask", Json.object(), CallOptions.ofDefaults()
                .withTimeout(Duration.ofSeconds(30)));
        CompletableFuture<ToolCallResult> b = bob.callToolAsync("ask", Json.object(), CallOptions.ofDefaults()
                .withTimeout(Duration.ofSeconds(30)));
        return new ToolCallResult[] {a.get(60, TimeUnit.SECONDS), b.get(60, TimeUnit.SECONDS)};
    }

    @Test
    void aPerClientUpstreamSendsEachClientItsOwnRequests() throws Exception {
        start(true);
        ToolCallResult[] results = callBoth();
        assertThat(results[0].text()).isEqualTo("ada");
        assertThat(results[1].text()).isEqualTo("bob");
    }

    @Test
    void aSharedUpstreamRefusesARequestItCannotRouteRatherThanGuess() throws Exception {
        start(false);
        ToolCallResult[] results = callBoth();
        assertThat(results).allSatisfy(r -> {
            assertThat(r.isError()).isTrue();
            assertThat(r.text()).doesNotContain("ada").doesNotContain("bob");
        });
    }
}
