package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.client.McpClient;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.incident.Incident;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.StdioTransport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What a client of the gateway receives when something fails, whatever failed (a frame it sent,
 * an upstream's answer): Warden's code and a ref that resolves in the gateway's incident store,
 * rendered by the one renderer; a retry-after only when one is known.
 */
class GatewayErrorAnswersTest {

    private final List<Incident> incidents = new CopyOnWriteArrayList<>();
    private Gateway gateway;
    private McpClient client;

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    /** An upstream with one tool and one resource, each answered as {@code answers} say (see {@link AnsweringCalls}). */
    private void start(Map<String, java.util.function.Function<JsonNode, String>> answers, String refusedMethod,
            String refusal) {
        McpServer server = McpServer.builder("limited", "1.0.0").incidents(IncidentSink.all())
                .tool(ToolSpec.builder("search").handler(call -> ToolResult.text("found")).build())
                .resource(new dev.warden.core.mcp.Resources.Resource("test://only", "only", Optional.empty(),
                        Optional.empty(), Optional.empty(), OptionalLong.empty()), (uri, vars) -> List.of())
                .build();
        Upstream u = Upstream.of("limited", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return new AnsweringCalls(new RefusingMethod(pair.left(), refusedMethod, refusal), answers,
                    new AtomicInteger());
        });
        gateway = Gateway.builder().upstream(u).incidents(incidents::add).build();
    }

    /** The gateway's answers to {@code input} sent over stdio (as {@code warden wrap} serves), one per line. */
    private BlockingQueue<JsonNode> overStdio(String input, int maxMessageBytes) {
        BlockingQueue<JsonNode> answers = new LinkedBlockingQueue<>();
        OutputStream lines = new OutputStream() {
            private final ByteArrayOutputStream line = new ByteArrayOutputStream();

            @Override
            public synchronized void write(int b) {
                if (b == '\n') {
                    answers.add(Json.mapper().readTree(line.toString(StandardCharsets.UTF_8)));
                    line.reset();
                } else {
                    line.write(b);
                }
            }
        };
        gateway.connect(StdioTransport.of(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), lines,
                maxMessageBytes));
        return answers;
    }

    private Incident incidentOf(String ref) {
        return incidents.stream().filter(i -> i.ref().value().equals(ref)).findFirst()
                .orElseThrow(() -> new AssertionError("no incident for " + ref + " in " + incidents));
    }

    @Test
    void aParseErrorOverStdioHasWardensCodeAndARefThatResolvesInTheGatewaysIncidents() throws Exception {
        start(Map.of(), "nothing/refused", "{}");
        JsonNode answer = overStdio("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\n", 1024).poll(20, TimeUnit.SECONDS);
        assertThat(answer.at("/error/code").asInt()).isEqualTo(-32700);
        assertThat(answer.at("/error/data/code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(incidentOf(answer.at("/error/data/ref").asString()).reason()).contains("malformed JSON");
    }

    @Test
    void anOversizedFrameOverStdioHasWardensCodeAndARefThatResolvesInTheGatewaysIncidents() throws Exception {
        start(Map.of(), "nothing/refused", "{}");
        String big = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"search\","
                + "\"arguments\":{\"q\":\"" + "a".repeat(4096) + "\"}}}";
        JsonNode answer = overStdio(big + "\n", 1024).poll(20, TimeUnit.SECONDS);
        assertThat(answer.get("id").asInt()).isEqualTo(5);
        assertThat(answer.at("/error/code").asInt()).isEqualTo(-32600);
        assertThat(answer.at("/error/data/code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(incidentOf(answer.at("/error/data/ref").asString()).code().name()).isEqualTo("VALIDATION_ERROR");
    }

    @Test
    void anUpstreamsRateLimitWithoutAWaitReachesTheClientWithoutARetryAfter() {
        start(Map.of("search", args -> AnsweringCalls.toolError("Rate limit exceeded for this API key")),
                "nothing/refused", "{}");
        client = McpClient.builder("c", "1").connect(ViaGateway.to(gateway));
        JsonNode error = client.callTool("search", Json.object().put("q", "x")).raw().at("/structuredContent/error");
        assertThat(error.get("code").asString()).isEqualTo("RATE_LIMITED");
        assertThat(error.get("retryable").asBoolean()).isTrue();
        assertThat(error.has("retryAfterMs")).as("no wait was known, none is made up").isFalse();
        assertThat(incidentOf(error.get("ref").asString()).original()).contains("Rate limit exceeded for this API key");
    }

    @Test
    void anUpstreamsRateLimitAsAJsonRpcErrorHasWardensCodeARefAndNoMadeUpWait() {
        start(Map.of(), "resources/read", "{\"code\":-32603,\"message\":\"Rate limit exceeded for this API key\"}");
        client = McpClient.builder("c", "1").connect(ViaGateway.to(gateway));
        assertThatThrownBy(() -> client.request("resources/read", Json.object().put("uri", "test://only")))
                .isInstanceOfSatisfying(PeerErrorException.class, e -> {
                    JsonNode data = e.error().data().orElseThrow();
                    assertThat(e.error().code()).isEqualTo(-32603);
                    assertThat(data.get("code").asString()).isEqualTo("RATE_LIMITED");
                    assertThat(data.get("retryable").asBoolean()).isTrue();
                    assertThat(data.has("retryAfterMs")).isFalse();
                    assertThat(incidentOf(data.get("ref").asString()).upstream()).contains("limited");
                });
    }
}
