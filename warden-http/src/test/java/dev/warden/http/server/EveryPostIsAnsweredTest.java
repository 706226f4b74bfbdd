package dev.warden.http.server;

import static dev.warden.http.server.HttpPeer.sessionHeaders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.warden.core.incident.Incident;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Every POST in a session gets an answer on itself, even one the session cannot take. */
class EveryPostIsAnsweredTest {

    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final List<Incident> incidents = new CopyOnWriteArrayList<>();
    private McpHttpServer http;
    private HttpPeer peer;

    @BeforeEach
    void start() throws Exception {
        McpServer server = McpServer.builder("answers", "1").incidents(IncidentSink.all())
                .tool(ToolSpec.builder("echo").handler(call -> ToolResult.text(call.arguments().path("text").asString("")))
                        .build())
                .tool(ToolSpec.builder("held").handler(call -> {
                    entered.countDown();
                    release.await();
                    return ToolResult.text("released");
                }).build())
                .build();
        http = McpHttpServer.builder().onSession(server::connect)
                .boundary(dev.warden.core.incident.ErrorBoundary.builder().incidents(incidents::add).build())
                .build().start();
        peer = new HttpPeer(http.endpoint());
    }

    @AfterEach
    void stop() {
        release.countDown();
        HttpPeer.closeAll();
        http.close();
    }

    @Test
    void aBatchInASessionWhoseVersionHasNoBatchesIsRefusedOnThePostWithARef() throws Exception {
        String session = peer.initialize();
        HttpResponse<String> response = assertTimeoutPreemptively(Duration.ofSeconds(15), () -> peer.send(peer.post("""
                [{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"ping"}]""",
                sessionHeaders(session))));

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode error = Json.mapper().readTree(response.body());
        assertThat(error.at("/error/code").asInt()).isEqualTo(-32600);
        assertThat(error.at("/error/message").asString()).contains("batches are not supported");
        assertThat(incidents).singleElement().satisfies(incident ->
                assertThat(incident.ref().value()).isEqualTo(error.at("/error/data/ref").asString()));
    }

    @Test
    void aBatchOfNotificationsIsRefusedOnThePostToo() throws Exception {
        String session = peer.initialize();
        HttpResponse<String> response = peer.send(peer.post("""
                [{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}]""", sessionHeaders(session)));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(Json.mapper().readTree(response.body()).at("/error/code").asInt()).isEqualTo(-32600);
    }

    @Test
    void aSecondPostWithTheIdOfARequestInFlightIsRefusedAndTheFirstCompletes() throws Exception {
        String session = peer.initialize();
        String held = """
                {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"held","arguments":{}}}""";
        CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> {
            try {
                return peer.send(peer.post(held, sessionHeaders(session)));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(entered.await(15, TimeUnit.SECONDS)).isTrue();

        HttpResponse<String> duplicate = assertTimeoutPreemptively(Duration.ofSeconds(15), () -> peer.send(peer.post("""
                {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}""",
                sessionHeaders(session))));
        assertThat(duplicate.statusCode()).isEqualTo(400);
        assertThat(Json.mapper().readTree(duplicate.body()).at("/error/code").asInt()).isEqualTo(-32600);
        assertThat(Json.mapper().readTree(duplicate.body()).at("/error/message").asString()).contains("already in use");
        assertThat(Json.mapper().readTree(duplicate.body()).get("id").asInt()).as("answered with its own id").isEqualTo(7);

        release.countDown();
        HttpResponse<String> answered = first.get(15, TimeUnit.SECONDS);
        List<HttpPeer.Event> events = HttpPeer.events(answered.body());
        JsonNode answer = Json.mapper().readTree(events.get(events.size() - 1).data());
        assertThat(answer.get("id").asInt()).isEqualTo(7);
        assertThat(answer.at("/result/content/0/text").asString()).isEqualTo("released");
    }

    @Test
    void anIdIsFreeAgainOnceItsRequestIsAnswered() throws Exception {
        String session = peer.initialize();
        String echo = """
                {"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","arguments":{"text":"again"}}}""";
        peer.send(peer.post(echo, sessionHeaders(session)));

        HttpResponse<String> second = peer.send(peer.post(echo, sessionHeaders(session)));
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(second.body()).contains("again");
    }
}
