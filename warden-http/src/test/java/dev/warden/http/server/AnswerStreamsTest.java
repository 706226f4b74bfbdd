package dev.warden.http.server;

import static dev.warden.http.server.HttpPeer.jsonHeaders;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A POST's answer stream for a client of a version before priming events (2025-06-18): its headers
 * go out with its first event (or a keep-alive), and the stream ends with its answer.
 */
class AnswerStreamsTest {

    private static final String INIT_2025_06_18 = """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",\
            "capabilities":{},"clientInfo":{"name":"test","version":"1"}}}""";

    private final CountDownLatch release = new CountDownLatch(1);
    private McpHttpServer http;
    private HttpPeer peer;

    @BeforeEach
    void start() throws Exception {
        McpServer server = McpServer.builder("answers", "1.0.0")
                .incidents(IncidentSink.all())
                .tool(ToolSpec.builder("echo").handler(call -> ToolResult.text("hi")).build())
                .tool(ToolSpec.builder("steps").handler(call -> {
                    call.context().progress(1, 2, "half");
                    return ToolResult.text("done");
                }).build())
                .tool(ToolSpec.builder("held").handler(call -> {
                    release.await(20, TimeUnit.SECONDS); // bounds a failure only
                    return ToolResult.text("released");
                }).build())
                .build();
        http = McpHttpServer.builder().keepAlive(Duration.ofMillis(100)).onSession(server::connect).build().start();
        peer = new HttpPeer(http.endpoint());
    }

    @AfterEach
    void stop() {
        HttpPeer.closeAll();
        http.close();
    }

    private String session() throws Exception {
        HttpResponse<String> response = peer.send(peer.post(INIT_2025_06_18, jsonHeaders()));
        String session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
        peer.send(peer.post(HttpPeer.INITIALIZED, headers(session)));
        return session;
    }

    private static Map<String, String> headers(String session) {
        return Map.of("Content-Type", "application/json", "Accept", "application/json, text/event-stream",
                "Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-06-18");
    }

    private static String call(String id, String tool) {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":{}}}";
    }

    @Test
    void anAnswerThatComesFirstIsTheStreamsOnlyEvent() throws Exception {
        HttpResponse<String> response = peer.send(peer.post(call("a", "echo"), headers(session())));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/event-stream"));
        List<HttpPeer.Event> events = HttpPeer.events(response.body());
        assertThat(events).hasSize(1);
        JsonNode answer = Json.mapper().readTree(events.get(0).data());
        assertThat(answer.get("id").asString()).isEqualTo("a");
        assertThat(answer.at("/result/content/0/text").asString()).isEqualTo("hi");
    }

    @Test
    void anAnswerAfterNotificationsComesLastAndEndsTheStream() throws Exception {
        String session = session();
        HttpResponse<String> response = peer.send(peer.post("{\"jsonrpc\":\"2.0\",\"id\":\"b\",\"method\":"
                + "\"tools/call\",\"params\":{\"name\":\"steps\",\"arguments\":{},\"_meta\":{\"progressToken\":\"p\"}}}",
                headers(session)));

        List<HttpPeer.Event> events = HttpPeer.events(response.body());
        assertThat(events).hasSize(2);
        assertThat(Json.mapper().readTree(events.get(0).data()).get("method").asString())
                .isEqualTo("notifications/progress");
        assertThat(Json.mapper().readTree(events.get(1).data()).get("id").asString()).isEqualTo("b");
    }

    @Test
    void aStreamWhoseAnswerTakesTimeOpensWithAKeepAliveAndEndsWithTheAnswer() throws Exception {
        String session = session();
        HttpResponse<Stream<String>> response = peer.stream(peer.post(call("c", "held"), headers(session)));

        assertThat(response.statusCode()).isEqualTo(200); // the headers came before the answer
        release.countDown();
        List<HttpPeer.Event> events;
        try (Stream<String> lines = response.body()) {
            events = HttpPeer.events(lines.iterator(), Integer.MAX_VALUE);
        }
        assertThat(events).hasSize(1);
        assertThat(Json.mapper().readTree(events.get(0).data()).at("/result/content/0/text").asString())
                .isEqualTo("released");
    }
}
