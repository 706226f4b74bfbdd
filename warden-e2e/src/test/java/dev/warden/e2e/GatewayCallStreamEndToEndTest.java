package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A Streamable HTTP client that never opens the optional GET stream, through {@code warden gateway}
 * to server-everything over stdio: what the server asks in the middle of a call (elicitation)
 * reaches the client on that call's own response stream. Sent to the GET stream instead, it would
 * be lost, and the call would hang until it timed out (the TypeScript SDK opens its GET stream in
 * the background after initializing, so a quick call raced it: the conformance suite's
 * elicitation scenario failed that way, now and then, through the gateway).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayCallStreamEndToEndTest {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private HttpGateway gateway;
    private String session;

    @BeforeAll
    void start() throws Exception {
        gateway = HttpGateway.inFrontOfServerEverything();
        ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
        init.putObject("capabilities").putObject("elicitation");
        init.putObject("clientInfo").put("name", "no-get-stream").put("version", "1");
        HttpResponse<java.io.InputStream> answer = post(request(1, "initialize", init));
        session = answer.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertThat(new Events(answer).next().at("/result/protocolVersion").asString()).isEqualTo("2025-11-25");
        assertThat(post(Json.object().put("jsonrpc", "2.0").put("method", "notifications/initialized"))
                .statusCode()).isEqualTo(202);
    }

    @AfterAll
    void stop() throws Exception {
        if (gateway != null) {
            gateway.stop();
        }
    }

    private static ObjectNode request(int id, String method, ObjectNode params) {
        ObjectNode request = Json.object().put("jsonrpc", "2.0").put("id", id).put("method", method);
        request.set("params", params);
        return request;
    }

    private HttpResponse<java.io.InputStream> post(JsonNode body) throws Exception {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(gateway.url()))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .timeout(PATIENCE)
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        if (session != null) {
            builder.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
        }
        return http.send(builder.build(), HttpResponse.BodyHandlers.ofInputStream());
    }

    /** The JSON-RPC messages of one response: its JSON body, or each event of its SSE stream, read as they come. */
    private static final class Events {

        private final BlockingQueue<JsonNode> messages = new LinkedBlockingQueue<>();

        Events(HttpResponse<java.io.InputStream> response) {
            boolean sse = response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream");
            Thread.ofVirtual().start(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(response.body(),
                        StandardCharsets.UTF_8))) {
                    if (!sse) {
                        messages.add(Json.mapper().readTree(in));
                        return;
                    }
                    StringBuilder data = new StringBuilder();
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        if (line.startsWith("data:")) {
                            data.append(line.substring(5).strip());
                        } else if (line.isEmpty() && !data.isEmpty()) {
                            messages.add(Json.mapper().readTree(data.toString()));
                            data.setLength(0);
                        }
                    }
                } catch (Exception e) {
                    messages.add(Json.object().put("readFailed", e.toString()));
                }
            });
        }

        JsonNode next() throws InterruptedException {
            JsonNode message = messages.poll(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            assertThat(message).as("a message on the stream").isNotNull();
            return message;
        }
    }

    @Test
    void theServersQuestionMidCallArrivesOnTheCallsOwnStream() throws Exception {
        ObjectNode call = Json.object().put("name", "trigger-elicitation-request");
        call.putObject("arguments");
        Events stream = new Events(post(request(7, "tools/call", call)));

        JsonNode question = stream.next();
        assertThat(question.path("method").asString()).as(question.toString()).isEqualTo("elicitation/create");
        ObjectNode content = Json.object().put("name", "Ada").put("check", true).put("firstLine", "Once")
                .put("email", "ada@example.com").put("integer", 3).put("number", 1.5).put("enum", "option1")
                .put("date", "2026-01-01").put("untitledSingleSelectEnum", "option1")
                .put("titledSingleSelectEnum", "option1").put("legacyTitledEnum", "option1");
        content.putArray("untitledMultipleSelectEnum").add("option1");
        content.putArray("titledMultipleSelectEnum").add("option1");
        ObjectNode result = Json.object().put("action", "accept");
        result.set("content", content);
        ObjectNode reply = Json.object().put("jsonrpc", "2.0");
        reply.set("id", question.get("id"));
        reply.set("result", result);
        assertThat(post(reply).statusCode()).isEqualTo(202);

        JsonNode answer = stream.next();
        assertThat(answer.path("id").asInt()).as(answer.toString()).isEqualTo(7);
        assertThat(answer.at("/result/isError").asBoolean(false)).as(answer.toString()).isFalse();
        assertThat(answer.at("/result/content").toString()).contains("Ada");
    }
}
