package dev.warden.e2e.attack;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A Streamable HTTP client written for counting: every POST's reply is read whole (a JSON body or
 * an SSE stream until the gateway ends it) and kept as the JSON-RPC messages it held, so an attack
 * can check that each request got exactly one answer with its own id.
 */
final class McpHttp {

    /** Reads what the gateway sends without limits of its own: a 50 MB answer is what is being counted. */
    static final JsonMapper JSON = JsonMapper.builder(JsonFactory.builder().streamReadConstraints(
            StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE).maxNestingDepth(10_000).build())
            .build()).build();
    static final String LATEST = "2025-11-25";

    private final URI uri;
    private final HttpClient http;

    /** A client whose replies are handled on virtual threads: an attacker's, many at once. */
    McpHttp(String url) {
        this.uri = URI.create(url);
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .executor(Executors.newVirtualThreadPerTaskExecutor()).connectTimeout(Duration.ofSeconds(10)).build();
    }

    URI uri() {
        return uri;
    }

    /** Closes its connections at once (the honest client's, before its gateway stops). */
    void close() {
        http.shutdownNow();
    }

    /** A reply: its status, the session id it named, and the JSON-RPC messages in it, in order. */
    record Reply(int status, Optional<String> session, List<JsonNode> messages) {

        /** How many of the messages answer {@code id} (a response, not a request the gateway sent with it). */
        long answersTo(Object id) {
            return messages.stream().filter(m -> !m.has("method") && m.has("id") && sameId(m.get("id"), id)).count();
        }

        Optional<JsonNode> answer(Object id) {
            return messages.stream().filter(m -> !m.has("method") && m.has("id") && sameId(m.get("id"), id)).findFirst();
        }

        private static boolean sameId(JsonNode node, Object id) {
            return id instanceof Number n ? node.isNumber() && node.asLong() == n.longValue()
                    : node.isString() && node.asString().equals(String.valueOf(id));
        }
    }

    Reply post(Optional<String> session, byte[] body, Map<String, String> headers, Duration guard)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(guard)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        session.ifPresent(s -> request.header("Mcp-Session-Id", s).header("MCP-Protocol-Version", LATEST));
        headers.forEach(request::header);
        HttpResponse<String> response = bounded(http.sendAsync(request.build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)), guard);
        return new Reply(response.statusCode(), response.headers().firstValue("Mcp-Session-Id"),
                messages(response.headers().firstValue("Content-Type").orElse(""), response.body()));
    }

    /**
     * A POST whose SSE reply is handed over message by message as it arrives, so the client can
     * answer a request the gateway sends on it; returns once the stream ends.
     */
    void postStreaming(Optional<String> session, String body, Duration guard, java.util.function.Consumer<JsonNode> onMessage)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(guard)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        session.ifPresent(s -> request.header("Mcp-Session-Id", s).header("MCP-Protocol-Version", LATEST));
        HttpResponse<java.util.stream.Stream<String>> response = http.send(request.build(),
                HttpResponse.BodyHandlers.ofLines());
        StringBuilder data = new StringBuilder();
        response.body().forEach(line -> {
            if (line.startsWith("data:")) {
                data.append(line.substring(5).strip());
            } else if (line.isBlank() && !data.isEmpty()) {
                List<JsonNode> out = new ArrayList<>();
                add(out, data.toString());
                data.setLength(0);
                out.forEach(onMessage);
            }
        });
        if (!data.isEmpty()) {
            List<JsonNode> out = new ArrayList<>();
            add(out, data.toString());
            out.forEach(onMessage);
        }
    }

    Reply post(Optional<String> session, String body, Duration guard) throws IOException, InterruptedException {
        return post(session, body.getBytes(StandardCharsets.UTF_8), Map.of(), guard);
    }

    /**
     * The whole reply within {@code guard}: a request's own timeout bounds only its headers, and an
     * SSE reply that never ends is exactly what some attacks provoke. Cancelling aborts the exchange.
     */
    private static <T> T bounded(java.util.concurrent.CompletableFuture<T> reply, Duration guard)
            throws IOException, InterruptedException {
        try {
            return reply.get(guard.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            reply.cancel(true);
            throw new java.net.http.HttpTimeoutException("no whole reply within " + guard);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
    }

    /** Opens a session declaring {@code capabilities} (a JSON object); returns its id. */
    String initialize(String capabilities, Duration guard) throws IOException, InterruptedException {
        Reply reply = post(Optional.empty(), initializeRequest(0, capabilities), guard);
        String session = reply.session().orElseThrow(() -> new IllegalStateException(
                "initialize gave no session: " + reply));
        post(Optional.of(session), "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", guard);
        return session;
    }

    static String initializeRequest(long id, String capabilities) {
        return """
                {"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":"%s",\
                "capabilities":%s,"clientInfo":{"name":"attack-suite-%d","version":"1"}}}""".formatted(id, LATEST,
                capabilities, id);
    }

    static String call(long id, String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":\"%s\",\"arguments\":%s}}"
                .formatted(id, tool, arguments);
    }

    /** The messages of a JSON body (one, or an array of them) or of an SSE stream's data lines. */
    static List<JsonNode> messages(String contentType, String body) {
        List<JsonNode> out = new ArrayList<>();
        if (contentType.startsWith("text/event-stream")) {
            StringBuilder data = new StringBuilder();
            for (String line : body.split("\n", -1)) {
                if (line.startsWith("data:")) {
                    data.append(line.substring(5).strip());
                } else if (line.isBlank() && !data.isEmpty()) {
                    add(out, data.toString());
                    data.setLength(0);
                }
            }
            if (!data.isEmpty()) {
                add(out, data.toString());
            }
        } else if (!body.isBlank()) {
            add(out, body);
        }
        return out;
    }

    private static void add(List<JsonNode> out, String json) {
        try {
            JsonNode node = JSON.readTree(json);
            if (node.isArray()) {
                node.forEach(out::add);
            } else {
                out.add(node);
            }
        } catch (RuntimeException e) {
            // not JSON: not an answer
        }
    }
}
