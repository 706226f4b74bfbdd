package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ToolCallResult;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.mcp.Logging;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.session.RequestOptions;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Session-based clients in front of an upstream that speaks only 2026-07-28 (it refuses
 * initialize with -32022): the gateway reaches it statelessly, and bridges log levels, resource
 * subscriptions and the upstream's input requests, which name their call, so two clients asking
 * at once each get their own.
 */
class GatewayStatelessUpstreamTest {

    private static ObjectNode whoAreYou() {
        ObjectNode params = Json.object();
        params.putArray("messages").addObject().put("role", "user").putObject("content")
                .put("type", "text").put("text", "who are you?");
        params.put("maxTokens", 5);
        return params;
    }

    private final CyclicBarrier bothInFlight = new CyclicBarrier(2);
    private final McpServer upstream = McpServer.builder("newest-only", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("ask").handler(call -> {
                ObjectNode answer = call.context().input("who", "sampling/createMessage", whoAreYou());
                return ToolResult.text(answer.path("content").path("text").asString());
            }).build())
            .tool(ToolSpec.builder("askTogether").handler(call -> {
                if (call.arguments().path("wait").asBoolean(false)) {
                    bothInFlight.await(30, TimeUnit.SECONDS);
                }
                ObjectNode answer = call.context().input("who", "sampling/createMessage", whoAreYou());
                return ToolResult.text(answer.path("content").path("text").asString());
            }).build())
            .tool(ToolSpec.builder("noisy").handler(call -> {
                call.context().log(Logging.Level.INFO, "working on it");
                return ToolResult.text("done");
            }).build())
            .resourceSubscriptions(true)
            .resource(new dev.warden.core.mcp.Resources.Resource("test://watched", "watched", java.util.Optional.empty(),
                    java.util.Optional.empty(), java.util.Optional.empty(), java.util.OptionalLong.empty()),
                    (uri, vars) -> List.of())
            .build();
    private Gateway gateway;
    private final List<McpClient> clients = new java.util.ArrayList<>();

    /** The upstream's connection, minus the session-based versions: initialize gets -32022. */
    private Transport newestOnly() {
        InMemoryTransport.Pair pair = InMemoryTransport.pair();
        upstream.connect(pair.right());
        return new RefusingMethod(pair.left(), "initialize", "{\"code\":" + JsonRpcError.UNSUPPORTED_PROTOCOL_VERSION
                + ",\"message\":\"Unsupported protocol version\",\"data\":{\"supported\":[\"2026-07-28\"]}}");
    }

    private McpClient sessionClient(String name, BlockingQueue<String> notifications) {
        gateway = gateway != null ? gateway : Gateway.builder()
                .upstream(Upstream.builder("newest", this::newestOnly).timeout(Duration.ofSeconds(30)).build())
                .incidents(IncidentSink.all()).build();
        McpClient client = McpClient.builder(name, "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(ProtocolVersion.V2025_11_25)
                .onSampling(params -> {
                    ObjectNode result = Json.object();
                    result.put("role", "assistant");
                    result.putObject("content").put("type", "text").put("text", "I am " + name);
                    result.put("model", "m");
                    return result;
                })
                .onNotification((method, params) -> notifications.add(method + " " + params.map(JsonNode::toString)
                        .orElse("")))
                .connect(ViaGateway.to(gateway));
        clients.add(client);
        return client;
    }

    @AfterEach
    void stop() {
        clients.forEach(McpClient::close);
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void theUpstreamsInputRequestBecomesARequestToTheClient() {
        McpClient ada = sessionClient("ada", new LinkedBlockingQueue<>());
        assertThat(ada.protocolVersion()).isEqualTo(ProtocolVersion.V2025_11_25);
        assertThat(ada.serverInfo().name()).isEqualTo("newest-only");
        ToolCallResult result = ada.callTool("ask", Json.object());
        assertThat(result.text()).isEqualTo("I am ada");
        assertThat(result.raw().has("resultType")).isFalse();
    }

    @Test
    void twoClientsAskingAtOnceEachAnswerTheirOwn() throws Exception {
        McpClient ada = sessionClient("ada", new LinkedBlockingQueue<>());
        McpClient bob = sessionClient("bob", new LinkedBlockingQueue<>());
        RequestOptions options = RequestOptions.ofToolCallDefaults().withTimeout(Duration.ofSeconds(30));
        CompletableFuture<ToolCallResult> a = ada.callToolAsync("askTogether", Json.object().put("wait", true), options);
        CompletableFuture<ToolCallResult> b = bob.callToolAsync("askTogether", Json.object().put("wait", true), options);
        assertThat(a.get(60, TimeUnit.SECONDS).text()).isEqualTo("I am ada");
        assertThat(b.get(60, TimeUnit.SECONDS).text()).isEqualTo("I am bob");
    }

    @Test
    void theLevelTheClientSetTravelsWithItsRequests() throws Exception {
        BlockingQueue<String> notifications = new LinkedBlockingQueue<>();
        McpClient ada = sessionClient("ada", notifications);
        ada.request("logging/setLevel", Json.object().put("level", "info"));
        assertThat(ada.callTool("noisy", Json.object()).text()).isEqualTo("done");
        String log = notifications.poll(30, TimeUnit.SECONDS);
        assertThat(log).startsWith("notifications/message").contains("working on it");
    }

    @Test
    void aSubscriptionRidesTheListenStreamAndTheUpdateReachesTheSubscriber() throws Exception {
        BlockingQueue<String> notifications = new LinkedBlockingQueue<>();
        McpClient ada = sessionClient("ada", notifications);
        ada.request("resources/subscribe", Json.object().put("uri", "test://watched"));
        // The listen stream is (re)opened asynchronously: updates are sent until one arrives.
        String update = null;
        for (int i = 0; i < 100 && update == null; i++) {
            upstream.resourceUpdated("test://watched");
            update = notifications.poll(100, TimeUnit.MILLISECONDS);
        }
        assertThat(update).startsWith("notifications/resources/updated").contains("test://watched");
    }
}
