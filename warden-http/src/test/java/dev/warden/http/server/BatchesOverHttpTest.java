package dev.warden.http.server;

import static dev.warden.http.server.HttpPeer.INITIALIZED;
import static dev.warden.http.server.HttpPeer.jsonHeaders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * JSON-RPC batches in a session: answered in the versions that have them (2024-11-05, 2025-03-26),
 * each request once with its own id, and refused at once (400, -32600) in those that removed them;
 * never a POST left waiting, never an id left in use.
 */
class BatchesOverHttpTest {

    private static final String BATCH = """
            [{"jsonrpc":"2.0","id":1,"method":"ping"},\
            {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"b"}}},\
            {"jsonrpc":"2.0","method":"notifications/roots/list_changed"}]""";

    private McpHttpServer http;
    private HttpPeer peer;

    @BeforeEach
    void start() throws Exception {
        McpServer server = McpServer.builder("batches", "1").incidents(IncidentSink.all())
                .tool(ToolSpec.builder("echo").handler(call -> ToolResult.text(call.arguments().path("text").asString("")))
                        .build())
                .build();
        http = McpHttpServer.builder().onSession(server::connect).build().start();
        peer = new HttpPeer(http.endpoint());
    }

    @AfterEach
    void stop() {
        HttpPeer.closeAll();
        http.close();
    }

    private String initialize(String version) throws Exception {
        HttpResponse<String> response = peer.send(peer.post("""
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"%s",\
                "capabilities":{},"clientInfo":{"name":"test","version":"1"}}}""".formatted(version), jsonHeaders()));
        String session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertThat(peer.send(peer.post(INITIALIZED, headers(session, version))).statusCode()).isEqualTo(202);
        return session;
    }

    private static Map<String, String> headers(String session, String version) {
        return Map.of("Content-Type", "application/json", "Accept", "application/json, text/event-stream",
                "Mcp-Session-Id", session, "MCP-Protocol-Version", version);
    }

    private HttpResponse<String> post(String body, String session, String version) {
        return assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> peer.send(peer.post(body, headers(session, version))));
    }

    /** Every JSON-RPC answer the response carries, whether as a JSON body or as events, arrays flattened. */
    private static List<JsonNode> answers(HttpResponse<String> response) {
        List<JsonNode> answers = new ArrayList<>();
        List<String> bodies = response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")
                ? HttpPeer.events(response.body()).stream().map(HttpPeer.Event::data).toList()
                : List.of(response.body());
        for (String body : bodies) {
            JsonNode node = Json.mapper().readTree(body);
            if (node.isArray()) {
                node.forEach(answers::add);
            } else {
                answers.add(node);
            }
        }
        return answers;
    }

    private static List<Integer> ids(List<JsonNode> answers) {
        return answers.stream().filter(a -> a.has("result") || a.has("error")).map(a -> a.path("id").asInt(-1)).toList();
    }

    @Test
    void aBatchInAMarch2025SessionGetsEachRequestAnsweredOnceWithItsOwnId() throws Exception {
        String session = initialize("2025-03-26");

        HttpResponse<String> response = post(BATCH, session, "2025-03-26");

        assertThat(response.statusCode()).isEqualTo(200);
        List<JsonNode> answers = answers(response);
        assertThat(ids(answers)).containsExactlyInAnyOrder(1, 2);
        assertThat(answers).filteredOn(a -> a.path("id").asInt() == 2).singleElement()
                .satisfies(a -> assertThat(a.at("/result/content/0/text").asString()).isEqualTo("b"));
    }

    @Test
    void theIdsOfAnAnsweredBatchAreFreeAgain() throws Exception {
        String session = initialize("2025-03-26");
        post(BATCH, session, "2025-03-26");

        HttpResponse<String> again = post("""
                {"jsonrpc":"2.0","id":2,"method":"ping"}""", session, "2025-03-26");

        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(ids(answers(again))).containsExactly(2);
    }

    @Test
    void aBatchInANovember2024SessionIsAnsweredToo() throws Exception {
        String session = initialize("2024-11-05");

        HttpResponse<String> response = post(BATCH, session, "2024-11-05");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(ids(answers(response))).containsExactlyInAnyOrder(1, 2);
    }

    @Test
    void aBatchOfNotificationsOnlyInAMarch2025SessionIsAccepted() throws Exception {
        String session = initialize("2025-03-26");

        HttpResponse<String> response = post("""
                [{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}]""", session, "2025-03-26");

        assertThat(response.statusCode()).isEqualTo(202);
    }

    @Test
    void aBatchTheSessionItselfRefusesIsAnsweredOnThePostAndItsIdsAreFreed() throws Exception {
        // A server that never says it negotiated batches, while the HTTP layer read 2025-03-26 from the
        // initialize: the session's refusal must still reach this POST, not leave it waiting.
        McpHttpServer refusing = McpHttpServer.builder().onSession(transport -> dev.warden.core.session.Session
                .builder(transport).onRequest("initialize", ctx -> Json.object()).onRequest("ping", ctx -> Json.object())
                .build().start()).build().start();
        try {
            peer = new HttpPeer(refusing.endpoint());
            String session = initialize("2025-03-26");

            HttpResponse<String> response = post(BATCH, session, "2025-03-26");
            HttpResponse<String> again = post("""
                    {"jsonrpc":"2.0","id":1,"method":"ping"}""", session, "2025-03-26");

            assertThat(answers(response)).singleElement()
                    .satisfies(a -> assertThat(a.at("/error/code").asInt()).isEqualTo(-32600));
            assertThat(again.statusCode()).as("the id is free again").isEqualTo(200);
        } finally {
            refusing.close();
        }
    }

    @Test
    void aBatchInAJune2025SessionIsRefusedAtOnceAsAnInvalidRequest() throws Exception {
        String session = initialize("2025-06-18");

        HttpResponse<String> response = post(BATCH, session, "2025-06-18");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(Json.mapper().readTree(response.body()).at("/error/code").asInt()).isEqualTo(-32600);
    }
}
