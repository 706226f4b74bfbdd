package dev.warden.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A raw JSON-RPC client on an in-memory transport, so tests assert on the exact bytes a peer receives. */
final class TestClient implements AutoCloseable {

    private final InMemoryTransport transport;
    private final ServerConnection connection;
    private final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    private final AtomicLong ids = new AtomicLong(100);

    TestClient(McpServer server) {
        InMemoryTransport.Pair pair = InMemoryTransport.pair();
        this.transport = pair.right();
        transport.start(new Transport.Listener() {
            @Override
            public void onFrame(byte[] frame) {
                received.add(new String(frame, StandardCharsets.UTF_8));
            }

            @Override
            public void onFrameError(dev.warden.core.error.ProtocolException error) {
            }

            @Override
            public void onClose() {
            }
        });
        this.connection = server.connect(pair.left());
    }

    static TestClient initialized(McpServer server) throws InterruptedException {
        return initialized(server, "2025-11-25");
    }

    static TestClient initialized(McpServer server, String version) throws InterruptedException {
        TestClient client = new TestClient(server);
        JsonNode reply = client.request("initialize", initializeParams(version));
        assertThat(reply.has("result")).as("initialize succeeded: %s", reply).isTrue();
        client.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        return client;
    }

    static ObjectNode initializeParams(String version) {
        ObjectNode params = Json.object();
        params.put("protocolVersion", version);
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "test").put("version", "1");
        return params;
    }

    ServerConnection connection() {
        return connection;
    }

    void send(String raw) {
        transport.send(raw);
    }

    /** Sends a request and returns the whole response object (skipping notifications). */
    JsonNode request(String method, JsonNode params) throws InterruptedException {
        long id = ids.incrementAndGet();
        ObjectNode message = Json.object();
        message.put("jsonrpc", "2.0").put("id", id).put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        send(message.toString());
        while (true) {
            JsonNode next = next();
            if (next.has("id") && next.get("id").asLong() == id) {
                return next;
            }
        }
    }

    /** The raw text of the response to a request. */
    String requestRaw(String method, JsonNode params) throws InterruptedException {
        return request(method, params).toString();
    }

    JsonNode callTool(String name, JsonNode arguments) throws InterruptedException {
        ObjectNode params = Json.object();
        params.put("name", name);
        if (arguments != null) {
            params.set("arguments", arguments);
        }
        return request("tools/call", params);
    }

    /** The tool of that name as {@code tools/list} shows it (the first page). */
    JsonNode listedTool(String name) throws InterruptedException {
        for (JsonNode tool : request("tools/list", json("{}")).get("result").get("tools")) {
            if (tool.get("name").stringValue().equals(name)) {
                return tool;
            }
        }
        throw new AssertionError("no tool " + name + " listed");
    }

    JsonNode next() throws InterruptedException {
        String frame = received.poll(20, TimeUnit.SECONDS);
        assertThat(frame).as("a frame from the server").isNotNull();
        return Json.mapper().readTree(frame);
    }

    int queued() {
        return received.size();
    }

    @Override
    public void close() {
        transport.close();
    }

    static ObjectNode json(String text) {
        return (ObjectNode) Json.mapper().readTree(text);
    }

    /** The {@code error} object inside an isError tool result's text. */
    static JsonNode toolError(JsonNode response) {
        JsonNode result = response.get("result");
        assertThat(result.get("isError").asBoolean()).as("isError in %s", response).isTrue();
        return Json.mapper().readTree(result.get("content").get(0).get("text").stringValue()).get("error");
    }
}
