package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code warden gateway} stopped by SIGTERM in the middle of a slow call to server-everything: it
 * reports not ready at once, refuses new calls with a retryable 503, lets the call in flight
 * finish, then exits 0.
 */
class GatewayDrainEndToEndTest {

    static final Duration GUARD = Duration.ofSeconds(30);
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpGateway gateway;

    @AfterEach
    void stop() throws Exception {
        if (gateway != null && gateway.peer().alive()) {
            gateway.stop();
        }
    }

    HttpRequest.Builder post(String body, String session) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gateway.url())).timeout(GUARD)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
        }
        return b;
    }

    static final String INIT = """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",\
            "capabilities":{},"clientInfo":{"name":"drain-test","version":"1"}}}""";

    HttpResponse<String> readyz() throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(gateway.url()).resolve("/readyz")).timeout(GUARD).GET()
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void sigtermDrainsTheCallInFlightRefusesNewOnesAndExitsZero() throws Exception {
        gateway = HttpGateway.inFrontOfServerEverything();
        assertThat(readyz().statusCode()).isEqualTo(200);
        HttpResponse<String> init = http.send(post(INIT, null).build(), HttpResponse.BodyHandlers.ofString());
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        http.send(post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", session).build(),
                HttpResponse.BodyHandlers.ofString());
        // 12 s: SIGTERM, the readiness polls and two refused requests must all come while it runs,
        // also on a loaded machine (once it has ended, the drained gateway refuses connections).
        HttpResponse<Stream<String>> slow = http.send(post("""
                {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"trigger-long-running-operation",\
                "arguments":{"duration":12,"steps":12},"_meta":{"progressToken":"p"}}}""", session).build(),
                HttpResponse.BodyHandlers.ofLines());
        Iterator<String> events = slow.body().iterator();
        CompletableFuture<String> firstProgress = CompletableFuture.supplyAsync(() -> next(events, "notifications/progress"));
        assertThat(firstProgress.get(GUARD.toSeconds(), TimeUnit.SECONDS)).contains("\"progress\":1");

        ProcessHandle.of(gateway.peer().pid()).orElseThrow().destroy(); // SIGTERM

        HttpResponse<String> notReady = awaitReadiness(503);
        assertThat(notReady.body()).isEqualTo("{\"ready\":false,\"failing\":[\"draining\"]}");
        HttpResponse<String> refused = http.send(post(INIT, null).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Retry-After")).contains("1");
        JsonNode error = Json.mapper().readTree(refused.body());
        assertThat(error.at("/error/code").asInt()).isEqualTo(-32603);
        assertThat(error.at("/error/data/retryable").asBoolean()).isTrue();
        HttpResponse<String> newCall = http.send(post("""
                {"jsonrpc":"2.0","id":3,"method":"tools/list"}""", session).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(newCall.statusCode()).isEqualTo(503);

        String result = CompletableFuture.supplyAsync(() -> next(events, "\"id\":2"))
                .get(GUARD.toSeconds(), TimeUnit.SECONDS);
        assertThat(result).contains("Long running operation completed").doesNotContain("isError\":true");
        assertThat(gateway.peer().awaitExit(GUARD)).isZero();
    }

    /** The next SSE data line holding {@code marker}. */
    static String next(Iterator<String> lines, String marker) {
        while (lines.hasNext()) {
            String line = lines.next();
            if (line.startsWith("data:") && line.contains(marker)) {
                return line;
            }
        }
        throw new AssertionError("the stream ended before " + marker);
    }

    HttpResponse<String> awaitReadiness(int status) throws Exception {
        long deadline = System.nanoTime() + GUARD.toNanos();
        while (true) {
            HttpResponse<String> r = readyz();
            if (r.statusCode() == status || System.nanoTime() > deadline) {
                return r;
            }
            Thread.onSpinWait();
        }
    }
}
