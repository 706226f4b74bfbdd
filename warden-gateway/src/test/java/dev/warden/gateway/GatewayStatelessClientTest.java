package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ToolCallResult;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A 2026-07-28 client in front of a session-based upstream: served per request without
 * initialize, and a question the upstream asks mid-call reaches it as an input request.
 */
class GatewayStatelessClientTest {

    /**
     * The upstream, reached through a connection without {@code server/discover}: to the gateway it
     * speaks only the session-based versions, so the calls of stateless clients that it asks
     * something mid-call are parked.
     */
    private final java.util.concurrent.CountDownLatch together = new java.util.concurrent.CountDownLatch(2);
    private final McpServer upstream = McpServer.builder("asking", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("echo").handler(call -> ToolResult.text("echo: "
                    + call.arguments().path("text").asString(""))).build())
            .tool(ToolSpec.builder("ask").handler(call -> {
                ObjectNode params = Json.object();
                params.putArray("messages").addObject().put("role", "user").putObject("content")
                        .put("type", "text").put("text", "who are you?");
                params.put("maxTokens", 5);
                ObjectNode first = call.context().requestClient("sampling/createMessage", params);
                ObjectNode second = call.context().requestClient("sampling/createMessage", params);
                return ToolResult.text(first.path("content").path("text").asString() + " then "
                        + second.path("content").path("text").asString());
            }).build())
            .tool(ToolSpec.builder("ask-together").handler(call -> {
                together.countDown();
                together.await(10, TimeUnit.SECONDS); // both calls are in flight before either asks
                ObjectNode params = Json.object();
                params.putArray("messages").addObject().put("role", "user").putObject("content")
                        .put("type", "text").put("text", "who are you?");
                params.put("maxTokens", 5);
                return ToolResult.text(call.context().requestClient("sampling/createMessage", params)
                        .path("content").path("text").asString());
            }).build())
            .tool(ToolSpec.builder("noisy").handler(call -> {
                call.context().log(dev.warden.core.mcp.Logging.Level.INFO, "info line");
                call.context().log(dev.warden.core.mcp.Logging.Level.WARNING, "warning line");
                return ToolResult.text("done");
            }).build())
            .tool(ToolSpec.builder("who-asks").handler(call -> ToolResult.text("offers: " + call.context()
                    .clientCapabilities().map(c -> String.join(",", c.propertyNames())).orElse("?"))).build())
            .resourceSubscriptions(true)
            .resource(new dev.warden.core.mcp.Resources.Resource("test://watched", "watched", java.util.Optional.empty(),
                    java.util.Optional.empty(), java.util.Optional.empty(), java.util.OptionalLong.empty()),
                    (uri, vars) -> java.util.List.of())
            .build();
    private Gateway gateway;
    private McpClient client;

    @BeforeEach
    void start() {
        Upstream u = Upstream.builder("asking", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstream.connect(pair.right());
            return new RefusingMethod(pair.left(), "server/discover", "{\"code\":-32601,\"message\":\"Method not found\"}");
        }).timeout(Duration.ofSeconds(30)).build();
        gateway = Gateway.builder().upstream(u).incidents(IncidentSink.all()).build();
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        gateway.close();
    }

    private McpClient statelessClient() {
        int[] answers = {0};
        return McpClient.builder("newest", "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(ProtocolVersion.V2026_07_28).onSampling(params -> sampled("answer " + (++answers[0])))
                .connect(ViaGateway.to(gateway));
    }

    private static ObjectNode sampled(String text) {
        ObjectNode result = Json.object();
        result.put("role", "assistant");
        result.putObject("content").put("type", "text").put("text", text);
        result.put("model", "m");
        return result;
    }

    @Test
    void aStatelessClientIsServedWithoutInitialize() {
        client = statelessClient();
        assertThat(client.protocolVersion()).isEqualTo(ProtocolVersion.V2026_07_28);
        assertThat(client.serverInfo().name()).isEqualTo("asking");
        ToolCallResult result = client.callTool("echo", Json.object().put("text", "hi"));
        assertThat(result.text()).isEqualTo("echo: hi");
        assertThat(result.raw().path("resultType").asString()).isEqualTo("complete");
    }

    @Test
    void questionsTheUpstreamAsksMidCallReachTheStatelessClientRoundByRound() {
        client = statelessClient();
        ToolCallResult result = client.callTool("ask", Json.object());
        assertThat(result.isError()).as(result.raw().toString()).isFalse();
        assertThat(result.text()).isEqualTo("answer 1 then answer 2");
    }

    @Test
    void theUpstreamSeesWhatEachStatelessClientOffersNotWhatTheFirstOneDid() {
        try (McpClient bare = McpClient.builder("bare", "1").protocolVersion(ProtocolVersion.V2026_07_28)
                .connect(ViaGateway.to(gateway))) {
            assertThat(bare.callTool("who-asks", Json.object()).text()).isEqualTo("offers: ");
            client = statelessClient();
            assertThat(client.callTool("who-asks", Json.object()).text()).isEqualTo("offers: sampling");
            assertThat(bare.callTool("who-asks", Json.object()).text()).isEqualTo("offers: ");
        }
    }

    @Test
    void questionsOfCallsOnDifferentUpstreamSessionsReachTheirOwnCallers() throws Exception {
        client = statelessClient();
        ObjectNode rootsAnswer = Json.object();
        rootsAnswer.putArray("roots");
        try (McpClient other = McpClient.builder("other", "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(ProtocolVersion.V2026_07_28).onRootsList(p -> rootsAnswer)
                .onSampling(p -> sampled("from other")).connect(ViaGateway.to(gateway))) {
            java.util.concurrent.CompletableFuture<ToolCallResult> first = java.util.concurrent.CompletableFuture
                    .supplyAsync(() -> client.callTool("ask-together", Json.object()));
            ToolCallResult second = other.callTool("ask-together", Json.object());
            assertThat(second.text()).as(second.raw().toString()).isEqualTo("from other");
            assertThat(first.get(30, TimeUnit.SECONDS).text()).isEqualTo("answer 1");
        }
    }

    // ---- raw frames ----------------------------------------------------------------------------

    private final BlockingQueue<JsonNode> received = new LinkedBlockingQueue<>();

    private Transport raw() {
        return RawFrames.open(gateway::connect, received);
    }

    private static String envelope(String version) {
        return "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + version
                + "\",\"io.modelcontextprotocol/clientCapabilities\":{}}";
    }

    private JsonNode answer() throws InterruptedException {
        JsonNode frame = received.poll(30, TimeUnit.SECONDS);
        assertThat(frame).as("an answer").isNotNull();
        return frame;
    }

    private static String callAsk(int id, String state, String answers) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"ask\","
                + "\"arguments\":{}," + (state == null ? "" : "\"requestState\":\"" + state + "\",\"inputResponses\":"
                + answers + ",") + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{\"sampling\":{}}}}}";
    }

    private static String sampled(JsonNode inputRequired, String text) {
        String key = inputRequired.at("/result/inputRequests").propertyNames().iterator().next();
        return "{\"" + key + "\":{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"" + text
                + "\"},\"model\":\"m\"}}";
    }

    @Test
    void eachRoundOfAParkedCallHasAFreshRequestStateAndAnEarlierOneResumesNothing() throws Exception {
        Transport t = raw();
        t.send(callAsk(1, null, null));
        JsonNode round1 = answer();
        String state1 = round1.at("/result/requestState").asString();
        assertThat(round1.at("/result/resultType").asString()).as(round1.toString()).isEqualTo("input_required");

        t.send(callAsk(2, state1, sampled(round1, "first")));
        JsonNode round2 = answer();
        String state2 = round2.at("/result/requestState").asString();
        assertThat(round2.at("/result/resultType").asString()).isEqualTo("input_required");
        assertThat(state2).startsWith("warden-parked.").isNotEqualTo(state1);

        t.send(callAsk(3, state1, sampled(round2, "replayed")));
        JsonNode replay = answer();
        assertThat(replay.path("id").asInt()).isEqualTo(3);
        assertThat(replay.at("/error/code").asInt()).isEqualTo(JsonRpcError.INVALID_PARAMS);

        t.send(callAsk(4, state2, sampled(round2, "second")));
        JsonNode done = answer();
        assertThat(done.path("id").asInt()).isEqualTo(4);
        assertThat(done.at("/result/content/0/text").asString()).isEqualTo("first then second");
    }

    @Test
    void aForgedRequestStateIsInvalidParamsWithoutEchoingIt() throws Exception {
        Transport t = raw();
        t.send("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"ask\",\"arguments\":{},"
                + "\"requestState\":\"warden-parked.forged-token-123\",\"inputResponses\":{}," + envelope("2026-07-28") + "}}");
        JsonNode answer = answer();
        assertThat(answer.path("id").asInt()).isEqualTo(7);
        assertThat(answer.at("/error/code").asInt()).isEqualTo(JsonRpcError.INVALID_PARAMS);
        assertThat(answer.toString()).doesNotContain("forged-token-123");
    }

    @Test
    void aRequestInAVersionNobodySpeaksGetsTheSupportedList() throws Exception {
        Transport t = raw();
        t.send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/list\",\"params\":{" + envelope("2099-01-01") + "}}");
        JsonNode answer = answer();
        assertThat(answer.at("/error/code").asInt()).isEqualTo(JsonRpcError.UNSUPPORTED_PROTOCOL_VERSION);
        assertThat(answer.at("/error/data/supported").toString()).contains("2026-07-28", "2025-11-25");
    }

    @Test
    void methodsTheStatelessVersionRemovedAreUnknown() throws Exception {
        Transport t = raw();
        t.send("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"info\","
                + envelope("2026-07-28") + "}}");
        assertThat(answer().at("/error/code").asInt()).isEqualTo(JsonRpcError.METHOD_NOT_FOUND);
    }

    @Test
    void discoverListsEveryVersionAndTheUpstreamsCapabilities() throws Exception {
        Transport t = raw();
        t.send("{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"server/discover\",\"params\":{" + envelope("2026-07-28")
                + "}}");
        JsonNode answer = answer();
        assertThat(answer.at("/result/supportedVersions").toString()).contains("2026-07-28", "2025-06-18");
        assertThat(answer.at("/result/capabilities/tools").isObject()).isTrue();
        assertThat(answer.at("/result/resultType").asString()).isEqualTo("complete");
    }

    private static String callNoisy(int id, String level) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"noisy\","
                + "\"arguments\":{},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}"
                + (level == null ? "" : ",\"io.modelcontextprotocol/logLevel\":\"" + level + "\"") + "}}}";
    }

    /** The frames up to and including the answer to {@code id}: log messages first, if any. */
    private java.util.List<JsonNode> framesUntilAnswer(int id) throws InterruptedException {
        java.util.List<JsonNode> frames = new java.util.ArrayList<>();
        JsonNode frame;
        do {
            frame = answer();
            frames.add(frame);
        } while (frame.path("id").asInt(-1) != id);
        return frames;
    }

    /**
     * A stateless request's log level is its own: messages at or above it reach its client,
     * those below it do not, and a level the protocol does not know (or none) means no logs.
     */
    @Test
    void aStatelessRequestHearsLogsAtOrAboveTheLevelItCarriesAndNoneForAnUnknownLevel() throws Exception {
        Transport t = raw();
        t.send(callNoisy(21, "warning"));
        java.util.List<JsonNode> warned = framesUntilAnswer(21);
        assertThat(warned).as(warned.toString()).hasSize(2);
        assertThat(warned.get(0).path("method").asString()).isEqualTo("notifications/message");
        assertThat(warned.get(0).at("/params/level").asString()).isEqualTo("warning");
        assertThat(warned.get(1).at("/result/content/0/text").asString()).isEqualTo("done");

        t.send(callNoisy(22, "debug"));
        java.util.List<JsonNode> all = framesUntilAnswer(22);
        assertThat(all).as(all.toString()).hasSize(3);
        assertThat(all.subList(0, 2)).extracting(f -> f.at("/params/level").asString())
                .containsExactly("info", "warning");

        for (String level : new String[] {"loud", "WARNING", null}) {
            t.send(callNoisy(23, level));
            java.util.List<JsonNode> none = framesUntilAnswer(23);
            assertThat(none).as(level + ": " + none).hasSize(1);
        }
    }

    @Test
    void aListenStreamIsAcknowledgedAndCarriesUpdatesOfTheResourcesItNames() throws Exception {
        Transport t = raw();
        t.send("{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"subscriptions/listen\",\"params\":{\"notifications\":"
                + "{\"resourceSubscriptions\":[\"test://watched\"],\"promptsListChanged\":true},"
                + envelope("2026-07-28") + "}}");
        JsonNode ack = answer();
        assertThat(ack.path("method").asString()).isEqualTo("notifications/subscriptions/acknowledged");
        assertThat(ack.at("/params/notifications/resourceSubscriptions").toString()).isEqualTo("[\"test://watched\"]");
        assertThat(ack.at("/params/notifications/promptsListChanged").isMissingNode()).isTrue();
        assertThat(ack.at("/params/_meta/io.modelcontextprotocol~1subscriptionId").asInt()).isEqualTo(11);

        upstream.resourceUpdated("test://watched");
        JsonNode update = answer();
        assertThat(update.path("method").asString()).isEqualTo("notifications/resources/updated");
        assertThat(update.at("/params/uri").asString()).isEqualTo("test://watched");
        assertThat(update.at("/params/_meta/io.modelcontextprotocol~1subscriptionId").asInt()).isEqualTo(11);
    }

    @Test
    void aDrainingGatewayEndsAListenStreamWithItsResultRatherThanWaitingForTheClient() throws Exception {
        Transport t = raw();
        t.send("{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"subscriptions/listen\",\"params\":{\"notifications\":"
                + "{\"resourceSubscriptions\":[\"test://watched\"]}," + envelope("2026-07-28") + "}}");
        assertThat(answer().path("method").asString()).isEqualTo("notifications/subscriptions/acknowledged");
        assertThat(gateway.lifecycle().inFlight()).isZero(); // in-memory: the HTTP endpoint counts requests

        Thread drain = Thread.ofVirtual().start(() -> {
            try {
                gateway.drain(Duration.ofMinutes(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        JsonNode ended = answer();
        assertThat(ended.path("id").asInt()).isEqualTo(12);
        assertThat(ended.at("/result/_meta/io.modelcontextprotocol~1subscriptionId").asInt()).isEqualTo(12);
        assertThat(ended.at("/result/resultType").asString()).isEqualTo("complete");
        drain.join(Duration.ofSeconds(30));
    }

    // ---- what stateless clients share --------------------------------------------------------

    private McpClient statelessClientOf(Gateway g, String name) {
        return McpClient.builder(name, "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(ProtocolVersion.V2026_07_28).connect(() -> {
                    InMemoryTransport.Pair pair = InMemoryTransport.pair();
                    g.connect(pair.right());
                    return pair.left();
                });
    }

    @Test
    void statelessRequestsUseTheSharedUpstreamEvenWhenUpstreamsArePerClient() {
        java.util.concurrent.atomic.AtomicInteger started = new java.util.concurrent.atomic.AtomicInteger();
        Upstream u = Upstream.builder("asking", () -> {
            started.incrementAndGet();
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstream.connect(pair.right());
            return pair.left();
        }).perClient(true).build();
        try (Gateway perClient = Gateway.builder().upstream(u).incidents(IncidentSink.all()).build()) {
            for (int i = 0; i < 4; i++) {
                try (McpClient c = statelessClientOf(perClient, "client" + i)) {
                    assertThat(c.callTool("echo", Json.object().put("text", "x")).text()).isEqualTo("echo: x");
                }
            }
            // The shared session, and the one stateless connection for stateless clients: not one per request.
            assertThat(started.get()).isLessThanOrEqualTo(2);
        }
    }
}
