package dev.warden.http.server;

import static dev.warden.http.server.HttpPeer.INITIALIZED;
import static dev.warden.http.server.HttpPeer.jsonHeaders;
import static dev.warden.http.server.HttpPeer.sessionHeaders;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A client of replicated sessions for the tests: each request to the replica the test picks, as a balancer would. */
final class ReplicaClient {

    static final String URI = "file:///watched.txt";
    static final String INIT = """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",\
            "capabilities":{"elicitation":{}},"clientInfo":{"name":"replicated-client","version":"1"}}}""";
    static final String CALL = """
            {"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s","arguments":{}}}""";
    static final Duration DEADLINE = Duration.ofSeconds(20);

    private ReplicaClient() {
    }

    static String open(McpHttpServer on) throws Exception {
        HttpPeer peer = new HttpPeer(on.endpoint());
        HttpResponse<String> response = peer.send(peer.post(INIT, jsonHeaders()));
        assertThat(response.statusCode()).isEqualTo(200);
        String session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertThat(peer.send(peer.post(INITIALIZED, sessionHeaders(session))).statusCode()).isEqualTo(202);
        return session;
    }

    static HttpResponse<String> post(McpHttpServer on, String session, String body) throws Exception {
        HttpPeer peer = new HttpPeer(on.endpoint());
        return peer.send(peer.post(body, sessionHeaders(session)));
    }

    static HttpResponse<String> delete(McpHttpServer on, String session) throws Exception {
        return new HttpPeer(on.endpoint()).send(HttpRequest.newBuilder(on.endpoint()).timeout(DEADLINE).DELETE()
                .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25"));
    }

    /** A POST whose event stream is read as it comes. */
    static Iterator<String> stream(McpHttpServer on, String session, String body) throws Exception {
        HttpPeer peer = new HttpPeer(on.endpoint());
        HttpResponse<Stream<String>> response = peer.stream(peer.post(body, sessionHeaders(session)));
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body().iterator();
    }

    /** The next JSON-RPC message on a stream (priming events carry none). */
    static JsonNode nextMessage(Iterator<String> lines) {
        while (true) {
            List<HttpPeer.Event> events = HttpPeer.events(lines, 1);
            assertThat(events).as("the stream ended before the next message").isNotEmpty();
            if (!events.get(0).data().isEmpty()) {
                return Json.mapper().readTree(events.get(0).data());
            }
        }
    }

    /** A session's GET stream, its messages queued as they arrive. */
    static LinkedBlockingQueue<JsonNode> openGet(McpHttpServer on, String session) throws Exception {
        LinkedBlockingQueue<JsonNode> messages = new LinkedBlockingQueue<>();
        Iterator<String> lines = getLines(on, session).iterator();
        Thread.ofVirtual().start(() -> {
            try {
                while (true) {
                    messages.add(nextMessage(lines));
                }
            } catch (RuntimeException | AssertionError e) {
                // the stream ended with the test
            }
        });
        return messages;
    }

    /** A session's GET stream as lines; closing them breaks its connection. */
    static Stream<String> getLines(McpHttpServer on, String session) throws Exception {
        HttpPeer peer = new HttpPeer(on.endpoint());
        HttpResponse<Stream<String>> response = peer.stream(HttpRequest.newBuilder(on.endpoint()).timeout(DEADLINE)
                .GET().header("Accept", "text/event-stream").header("Mcp-Session-Id", session)
                .header("MCP-Protocol-Version", "2025-11-25"));
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    static JsonNode answerOf(HttpResponse<String> response) {
        List<HttpPeer.Event> events = HttpPeer.events(response.body());
        return Json.mapper().readTree(events.get(events.size() - 1).data());
    }

    /** The levels of the log notifications on a finished call's stream, in order. */
    static List<String> levels(HttpResponse<String> response) {
        return HttpPeer.events(response.body()).stream().filter(e -> !e.data().isEmpty())
                .map(e -> Json.mapper().readTree(e.data()))
                .filter(m -> "notifications/message".equals(m.path("method").asString("")))
                .map(m -> m.at("/params/level").asString()).toList();
    }

    /**
     * Calls the chatty tool on {@code on} until its logs come at {@code expected} levels: a copy
     * applies a change replayed into it on a handler thread of its own, a moment after it arrives.
     */
    static void awaitLevels(McpHttpServer on, String session, int firstId, List<String> expected)
            throws Exception {
        Instant until = Instant.now().plus(DEADLINE);
        List<String> seen = List.of();
        for (int id = firstId; Instant.now().isBefore(until); id++) {
            seen = levels(post(on, session, CALL.formatted(id, "log")));
            if (seen.equals(expected)) {
                return;
            }
        }
        assertThat(seen).as("log levels on the other replica").isEqualTo(expected);
    }

    /** Updates the resource on {@code on} until its GET stream carries the update (the subscription is replayed there asynchronously). */
    static void await(String what, BooleanSupplier condition) {
        Instant until = Instant.now().plus(DEADLINE);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(until)) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.onSpinWait();
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    /** The key of a session's shared record: a digest of its id. */
    static String recordKey(String session) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(session.getBytes(StandardCharsets.UTF_8));
            return "warden.s." + Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    static String answer(JsonNode id, String name) {
        ObjectNode answer = Json.object();
        answer.put("jsonrpc", "2.0");
        answer.set("id", id);
        ObjectNode result = answer.putObject("result");
        result.put("action", "accept");
        result.putObject("content").put("name", name);
        return Json.write(answer);
    }

    static String setLevel(int id, String level) {
        return """
                {"jsonrpc":"2.0","id":%d,"method":"logging/setLevel","params":{"level":"%s"}}""".formatted(id, level);
    }

    static String subscribe(int id, String method) {
        return """
                {"jsonrpc":"2.0","id":%d,"method":"%s","params":{"uri":"%s"}}""".formatted(id, method, URI);
    }
}
