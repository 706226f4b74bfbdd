package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ToolCallResult;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.session.RequestOptions;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * Session-based clients of one upstream: each on an upstream connection declaring what it declares;
 * an upstream's own request to a client (here sampling) while two clients on the same connection
 * have calls in flight cannot be told apart and is refused (a client only listing tools is not one
 * of them), while a per-client upstream, or clients on different connections, always know; each connection's log messages reach its own clients.
 */
class GatewayRoutingTest {

    private final CyclicBarrier bothInFlight = new CyclicBarrier(2);
    private final CyclicBarrier bothAsked = new CyclicBarrier(2);
    private final McpServer upstream = McpServer.builder("asking", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("ask").handler(call -> {
                bothInFlight.await(30, TimeUnit.SECONDS);
                ObjectNode answer = null;
                Exception failed = null;
                try {
                    answer = call.context().requestClient("sampling/createMessage", whoAreYou());
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
            .tool(ToolSpec.builder("ask-alone").handler(call -> ToolResult.text(call.context()
                    .requestClient("sampling/createMessage", whoAreYou()).path("content").path("text").asString()))
                    .build())
            .tool(ToolSpec.builder("log").handler(call -> {
                call.context().log(dev.warden.core.mcp.Logging.Level.WARNING, "logged for the caller");
                return ToolResult.text("done");
            }).build())
            .tool(ToolSpec.builder("who-asks").handler(call -> ToolResult.text("offers: " + call.context()
                    .clientCapabilities().map(c -> String.join(",", c.propertyNames())).orElse("?"))).build())
            .build();
    private Gateway gateway;
    private McpClient ada;

    /** The sampling request the tools make: the client answers with its own name. */
    private static ObjectNode whoAreYou() {
        ObjectNode params = Json.object();
        params.putArray("messages").addObject().put("role", "user").putObject("content")
                .put("type", "text").put("text", "who are you?");
        params.put("maxTokens", 5);
        return params;
    }
    private McpClient bob;

    /** While set, the gateway's next tools/list request waits here instead of reaching the upstream. */
    private final java.util.concurrent.atomic.AtomicBoolean holdListing = new java.util.concurrent.atomic.AtomicBoolean();
    private final java.util.List<Runnable> heldListings = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final CountDownLatch listingHeld = new CountDownLatch(1);

    private void start(boolean perClient) {
        Upstream u = Upstream.builder("asking", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstream.connect(pair.right());
            return new ForwardingTransport(pair.left()) {
                @Override
                public void send(String frame) {
                    if (frame.contains("\"method\":\"tools/list\"") && holdListing.compareAndSet(true, false)) {
                        heldListings.add(() -> super.send(frame));
                        listingHeld.countDown();
                        return;
                    }
                    super.send(frame);
                }
            };
        }).perClient(perClient).timeout(Duration.ofSeconds(30)).build();
        gateway = Gateway.builder().upstream(u).incidents(IncidentSink.all()).build();
        ada = client("ada");
        bob = client("bob");
    }

    private McpClient client(String name) {
        return client(name, false);
    }

    /** The log messages each client received, by its name. */
    private final java.util.Map<String, java.util.List<String>> logs = new java.util.concurrent.ConcurrentHashMap<>();
    /** Released by each client's first log message. */
    private final java.util.Map<String, CountDownLatch> firstLog = new java.util.concurrent.ConcurrentHashMap<>();

    private McpClient client(String name, boolean roots) {
        // Session-based clients: each has a connection that can own an upstream (stateless ones share them).
        java.util.List<String> mine = logs.computeIfAbsent(name, n -> new java.util.concurrent.CopyOnWriteArrayList<>());
        CountDownLatch logged = firstLog.computeIfAbsent(name, n -> new CountDownLatch(1));
        McpClient.Builder builder = McpClient.builder(name, "1").onNotification((method, params) -> {
            if ("notifications/message".equals(method)) {
                mine.add(params.map(p -> p.path("data").asString("")).orElse(""));
                logged.countDown();
            }
        });
        if (roots) {
            builder.onRootsList(params -> {
                ObjectNode none = Json.object();
                none.putArray("roots");
                return none;
            });
        }
        return builder.requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(dev.warden.core.mcp.ProtocolVersion.V2025_11_25).onSampling(params -> {
            ObjectNode result = Json.object();
            result.put("role", "assistant");
            result.putObject("content").put("type", "text").put("text", name);
            result.put("model", "m");
            return result;
        }).connect(ViaGateway.to(gateway));
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
        CompletableFuture<ToolCallResult> a = ada.callToolAsync("ask", Json.object(), RequestOptions.ofToolCallDefaults()
                .withTimeout(Duration.ofSeconds(30)));
        CompletableFuture<ToolCallResult> b = bob.callToolAsync("ask", Json.object(), RequestOptions.ofToolCallDefaults()
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
    void clientsDeclaringDifferentCapabilitiesAreEachServedOnASessionDeclaringTheirOwn() throws Exception {
        start(false);
        McpClient carol = client("carol", true);
        try {
            assertThat(ada.callTool("who-asks", Json.object()).text()).isEqualTo("offers: sampling");
            assertThat(carol.callTool("who-asks", Json.object()).text()).isEqualTo("offers: sampling,roots");
            // On different sessions, questions asked at the same time are each about one caller.
            CompletableFuture<ToolCallResult> a = ada.callToolAsync("ask", Json.object(), RequestOptions.ofToolCallDefaults()
                    .withTimeout(Duration.ofSeconds(30)));
            ToolCallResult c = carol.callTool("ask", Json.object(), RequestOptions.ofToolCallDefaults()
                    .withTimeout(Duration.ofSeconds(30)));
            assertThat(a.get(60, TimeUnit.SECONDS).text()).isEqualTo("ada");
            assertThat(c.text()).isEqualTo("carol");
        } finally {
            carol.close();
        }
    }

    /** The client's log messages once at least one has arrived (a hang guard of 10 s, not a speed check). */
    private java.util.List<String> received(String name) throws InterruptedException {
        firstLog.get(name).await(10, TimeUnit.SECONDS);
        return logs.get(name);
    }

    @Test
    void logsOfOneUpstreamSessionReachOnlyTheClientsOnIt() throws Exception {
        start(false);
        McpClient carol = client("carol", true);
        try {
            assertThat(carol.callTool("log", Json.object()).text()).isEqualTo("done");
            // ada's own call afterwards: carol's log, had it been sent to her, would be ahead of her own
            // (notifications reach a client in order, though after the answer they came before).
            assertThat(ada.callTool("log", Json.object()).text()).isEqualTo("done");
            assertThat(received("carol")).containsExactly("logged for the caller");
            assertThat(received("ada")).containsExactly("logged for the caller");
        } finally {
            carol.close();
        }
    }

    @Test
    void aClientListingToolsIsNoCandidateForAnotherClientsQuestion() throws Exception {
        start(false);
        holdListing.set(true);
        CompletableFuture<?> bobLists = CompletableFuture.supplyAsync(() -> bob.listTools());
        assertThat(listingHeld.await(30, TimeUnit.SECONDS)).as("bob's listing in flight upstream").isTrue();

        ToolCallResult asked = ada.callTool("ask-alone", Json.object(), RequestOptions.ofToolCallDefaults()
                .withTimeout(Duration.ofSeconds(30)));

        assertThat(asked.isError()).as(asked.text()).isFalse();
        assertThat(asked.text()).isEqualTo("ada");
        heldListings.forEach(Runnable::run);
        assertThat(bobLists.get(30, TimeUnit.SECONDS)).isNotNull();
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
