package dev.warden.client.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.warden.client.McpClient;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A server that, like the TypeScript SDK's, sends what concerns no request to the GET stream and
 * drops it while none is open: the client's GET stream is answered before its first request after
 * initializing goes out, so a question asked during that request has somewhere to go.
 */
class ListenStreamFirstTest {

    /** What the server saw and did, in order. */
    private final List<String> seen = new CopyOnWriteArrayList<>();
    private final CountDownLatch done = new CountDownLatch(1);
    /** Released when the request after initializing arrives: before the GET stream's answer, that is the bug. */
    private final CountDownLatch requestArrived = new CountDownLatch(1);
    private final HttpServer server;

    ListenStreamFirstTest() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/mcp", this::handle);
        server.start();
    }

    @AfterEach
    void stop() {
        done.countDown();
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            switch (exchange.getRequestMethod()) {
                case "GET" -> {
                    // A server a little slow to open the stream: it holds its answer for 200 ms, or
                    // until a request arrives first (a client that did not wait for the stream). A
                    // bound, not an event: a client that waits sends nothing to wait for.
                    requestArrived.await(200, TimeUnit.MILLISECONDS);
                    exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
                    exchange.sendResponseHeaders(200, 0);
                    seen.add("GET answered");
                    exchange.getResponseBody().flush();
                    done.await(30, TimeUnit.SECONDS);
                }
                case "POST" -> answer(exchange, Json.mapper().readTree(exchange.getRequestBody().readAllBytes()));
                default -> exchange.sendResponseHeaders(200, -1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void answer(HttpExchange exchange, JsonNode message) throws IOException {
        String method = message.path("method").asString("");
        seen.add(method);
        if ("tools/list".equals(method)) {
            requestArrived.countDown();
        }
        if (!message.has("id")) {
            exchange.sendResponseHeaders(202, -1);
            return;
        }
        String result = switch (method) {
            case "initialize" -> "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
                    + "\"serverInfo\":{\"name\":\"drops-early\",\"version\":\"1\"}}";
            case "tools/list" -> "{\"tools\":[]}";
            default -> "{}";
        };
        byte[] body = ("{\"jsonrpc\":\"2.0\",\"id\":" + message.get("id") + ",\"result\":" + result + "}")
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.getResponseHeaders().add("Mcp-Session-Id", "s1");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Test
    void theGetStreamIsAnsweredBeforeTheFirstRequestAfterInitializing() {
        URI endpoint = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
        try (McpClient client = McpClient.builder("listen-first", "1").protocolVersion(ProtocolVersion.V2025_11_25)
                .connect(McpClient.http(endpoint))) {
            client.listTools();
        }

        assertThat(seen).containsSubsequence("notifications/initialized", "GET answered", "tools/list");
    }
}
