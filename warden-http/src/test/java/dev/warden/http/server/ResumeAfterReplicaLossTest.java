package dev.warden.http.server;

import static dev.warden.http.server.HttpPeer.INITIALIZED;
import static dev.warden.http.server.HttpPeer.jsonHeaders;
import static dev.warden.http.server.HttpPeer.sessionHeaders;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.cluster.InProcessReplicas;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A client resuming a portable session's stream ({@code Last-Event-ID}) on another replica than the
 * one serving it, as a round-robin balancer sends it: once that replica is down, the requests the
 * stream carried are answered there with a retryable error, each with its own id; while it lives,
 * the resumption is refused as before (it must reach the replica serving the stream).
 */
class ResumeAfterReplicaLossTest {

    private static final SessionKeys KEYS = SessionKeys.parse(SessionKeys.newKeyLine("k1"));
    private static final String INIT = """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",\
            "capabilities":{},"clientInfo":{"name":"resuming-client","version":"1"}}}""";
    private static final String SLOW_CALL = """
            {"jsonrpc":"2.0","id":"call-7","method":"tools/call","params":{"name":"slow","arguments":{}}}""";

    private final InProcessReplicas hub = InProcessReplicas.hub();
    private final CountDownLatch release = new CountDownLatch(1);
    private final List<McpHttpServer> servers = new ArrayList<>();

    private McpHttpServer replica(String id) throws Exception {
        McpServer server = McpServer.builder("replica", "1").incidents(IncidentSink.all())
                .tool(ToolSpec.builder("slow").handler(call -> {
                    release.await();
                    return ToolResult.text("done");
                }).build())
                .build();
        McpHttpServer http = McpHttpServer.builder().onSession(server::connect)
                .portableSessions(KEYS, Duration.ofHours(1)).replicas(hub.join(id)).build().start();
        servers.add(http);
        return http;
    }

    @AfterEach
    void stop() {
        release.countDown();
        HttpPeer.closeAll();
        servers.forEach(McpHttpServer::close);
    }

    private static String open(McpHttpServer on) throws Exception {
        HttpPeer peer = new HttpPeer(on.endpoint());
        String session = peer.send(peer.post(INIT, jsonHeaders())).headers().firstValue("Mcp-Session-Id").orElseThrow();
        peer.send(peer.post(INITIALIZED, sessionHeaders(session)));
        return session;
    }

    /** Starts the slow call on {@code on}; returns the id of the priming event its stream begins with. */
    private static String slowCallStarted(McpHttpServer on, String session) throws Exception {
        HttpPeer peer = new HttpPeer(on.endpoint());
        HttpResponse<Stream<String>> response = peer.stream(peer.post(SLOW_CALL, sessionHeaders(session)));
        List<HttpPeer.Event> first = HttpPeer.events(response.body().iterator(), 1);
        return first.get(0).id().orElseThrow();
    }

    private static HttpResponse<String> resume(McpHttpServer on, String session, String lastEventId) throws Exception {
        HttpPeer peer = new HttpPeer(on.endpoint());
        Map<String, String> headers = new HashMap<>(sessionHeaders(session));
        headers.remove("Content-Type");
        headers.put("Accept", "text/event-stream");
        headers.put("Last-Event-ID", lastEventId);
        HttpRequest.Builder get = HttpRequest.newBuilder(on.endpoint()).timeout(Duration.ofSeconds(20)).GET();
        headers.forEach(get::header);
        return peer.send(get);
    }

    @Test
    void theRequestsOfAStreamWhoseReplicaIsDownAreAnsweredWithARetryableError() throws Exception {
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        String session = open(a);
        String lastEventId = slowCallStarted(a, session);
        hub.stop("a"); // killed: its stream, and the answer it would have sent, are gone

        HttpResponse<String> response = resume(b, session, lastEventId);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/event-stream");
        List<HttpPeer.Event> events = HttpPeer.events(response.body());
        assertThat(events).hasSize(1);
        assertThat(events.get(0).id()).as("nothing to resume after it").isEmpty();
        JsonNode error = Json.mapper().readTree(events.get(0).data());
        assertThat(error.get("id").asString()).isEqualTo("call-7");
        assertThat(error.at("/error/code").asInt()).isEqualTo(-32603);
        assertThat(error.at("/error/message").asString()).contains("stopped before answering", "again");
        assertThat(error.at("/error/data/retryable").asBoolean()).isTrue();
        assertThat(error.at("/error/data/ref").asString()).isNotEmpty();
    }

    @Test
    void aResumptionThatArrivesBeforeTheReplicaIsSeenDownWaitsForIt() throws Exception {
        // A killed replica counts as alive until its heartbeat lapses; the client resumes sooner.
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        String session = open(a);
        String lastEventId = slowCallStarted(a, session);
        var resumed = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return resume(b, session, lastEventId);
            } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
        hub.stop("a");

        HttpResponse<String> response = resumed.get();

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode error = Json.mapper().readTree(HttpPeer.events(response.body()).get(0).data());
        assertThat(error.get("id").asString()).isEqualTo("call-7");
        assertThat(error.at("/error/data/retryable").asBoolean()).isTrue();
    }

    @Test
    void theStreamIdNamesItsReplicaButNoSecret() throws Exception {
        McpHttpServer a = replica("a");
        String session = open(a);
        String lastEventId = slowCallStarted(a, session);

        assertThat(lastEventId).startsWith("a.").doesNotContain(session).hasSizeLessThan(40);
    }
}
