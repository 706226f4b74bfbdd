package dev.warden.audit.internal;

import dev.warden.core.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A session of its own on a Streamable HTTP endpoint, on which frames are POSTed as they are
 * (malformed JSON-RPC, batches, oversized bodies): what the client's transport, which frames each
 * request itself, cannot send. Opened with an {@code initialize} and {@code notifications/initialized};
 * every POST carries the target's headers, the session id and the negotiated protocol version, and
 * is bounded in time, headers and body alike, and its body read up to {@value #MAX_BODY} bytes.
 */
public final class RawPosts implements AutoCloseable {

    /** The most of an answer's body read: enough for any error, not a flood. */
    public static final int MAX_BODY = 1024 * 1024;

    /** What came of one POST. */
    public sealed interface Outcome {
        /**
         * The server answered with {@code status}: the JSON-RPC messages its body held (a JSON body,
         * or an SSE stream's events), and any part of the body that is not a JSON-RPC message.
         */
        record Answered(int status, List<ObjectNode> messages, List<String> unreadable) implements Outcome {
            public Answered {
                messages = List.copyOf(messages);
                unreadable = List.copyOf(unreadable);
            }
        }

        /** No status line within the timeout: the request hangs. */
        record Hung() implements Outcome {
        }

        /** The connection failed before an answer (refused, reset); {@code why} names the exception's class. */
        record Failed(String why) implements Outcome {
        }
    }

    /** The audit's own initialize, sent as is (the HTTP checks send it too). */
    public static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":\"wdn-raw-init\",\"method\":\"initialize\","
            + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"warden-audit\",\"version\":\"1\"}}}";

    private final HttpClient client;
    private final URI endpoint;
    private final Map<String, String> headers;
    private final Duration timeout;

    private RawPosts(HttpClient client, URI endpoint, Map<String, String> headers, Duration timeout) {
        this.client = client;
        this.endpoint = endpoint;
        this.headers = headers;
        this.timeout = timeout;
    }

    /**
     * Opens a session with {@code headers} (the target's, credentials included); throws when the
     * server does not initialize it (its status is in the message).
     */
    public static RawPosts open(HttpClient client, URI endpoint, Map<String, String> headers, Duration timeout)
            throws IOException, InterruptedException {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(headers, "headers");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
        RawPosts opening = new RawPosts(client, endpoint, Map.copyOf(headers), timeout);
        HttpResponse<InputStream> r = opening.send(INITIALIZE)
                .orElseThrow(() -> new IOException("initialize was not answered within " + timeout.toMillis() + " ms"));
        List<ObjectNode> answer = new ArrayList<>();
        read(r, timeout, answer, new ArrayList<>());
        if (r.statusCode() / 100 != 2) {
            throw new IOException("initialize was refused (HTTP " + r.statusCode() + ")");
        }
        Map<String, String> session = new LinkedHashMap<>(headers);
        // What the server chose goes back in headers: only as a header token (visible ASCII), so a
        // version or id with a line break or a control character cannot end the audit.
        r.headers().firstValue("Mcp-Session-Id").filter(RawPosts::isHeaderToken)
                .ifPresent(id -> session.put("Mcp-Session-Id", id));
        answer.stream().map(m -> m.path("result").path("protocolVersion")).filter(JsonNode::isString).findFirst()
                .map(JsonNode::asString).filter(RawPosts::isHeaderToken)
                .ifPresent(v -> session.put("MCP-Protocol-Version", v));
        RawPosts posts = new RawPosts(client, endpoint, Map.copyOf(session), timeout);
        posts.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        return posts;
    }

    /** The headers every POST carries: the target's, the session id and the protocol version. */
    public Map<String, String> headers() {
        return headers;
    }

    /** POSTs {@code frame} as it is and reads what comes back. */
    public Outcome post(String frame) {
        try {
            Optional<HttpResponse<InputStream>> r = send(frame);
            if (r.isEmpty()) {
                return new Outcome.Hung();
            }
            List<ObjectNode> messages = new ArrayList<>();
            List<String> unreadable = new ArrayList<>();
            read(r.get(), timeout, messages, unreadable);
            return new Outcome.Answered(r.get().statusCode(), messages, unreadable);
        } catch (IOException e) {
            return new Outcome.Failed(e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome.Failed("interrupted");
        }
    }

    /** Ends the session ({@code DELETE}); a server that will not is left to expire it. */
    @Override
    public void close() {
        if (!headers.containsKey("Mcp-Session-Id")) {
            return;
        }
        delete(client, endpoint, timeout, headers);
    }

    /** A frame POSTed as Streamable HTTP wants it (JSON, either answer form accepted); headers are the caller's. */
    public static HttpRequest.Builder post(URI endpoint, Duration timeout, String frame) {
        return HttpRequest.newBuilder(endpoint).timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(frame));
    }

    /** Ends a session ({@code headers} name it); a server that will not is left to expire it. */
    public static void delete(HttpClient client, URI endpoint, Duration timeout, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(endpoint).timeout(timeout).DELETE();
        headers.forEach(b::header);
        try {
            client.send(b.build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            // the session expires on its own
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Visible ASCII only, at most 256 characters: what a session id or a version may be in a header. */
    static boolean isHeaderToken(String value) {
        return !value.isEmpty() && value.length() <= 256 && value.chars().allMatch(c -> c > 0x20 && c < 0x7F);
    }

    private Optional<HttpResponse<InputStream>> send(String frame) throws IOException, InterruptedException {
        HttpRequest.Builder b = post(endpoint, timeout, frame);
        headers.forEach(b::setHeader);
        CompletableFuture<HttpResponse<InputStream>> pending =
                client.sendAsync(b.build(), HttpResponse.BodyHandlers.ofInputStream());
        try {
            return Optional.of(pending.get(timeout.toMillis() + 500, TimeUnit.MILLISECONDS));
        } catch (TimeoutException e) {
            pending.cancel(true);
            return Optional.empty();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof java.net.http.HttpTimeoutException) {
                return Optional.empty();
            }
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
    }

    /**
     * Reads the body (at most {@link #MAX_BODY} bytes, at most {@code timeout}) into the messages it
     * holds and the text that is none. A stream still open at the deadline is closed: what came is kept.
     */
    private static void read(HttpResponse<InputStream> r, Duration timeout, List<ObjectNode> messages,
            List<String> unreadable) {
        CompletableFuture<byte[]> body = CompletableFuture.supplyAsync(() -> {
            try (InputStream in = r.body()) {
                return in.readNBytes(MAX_BODY);
            } catch (IOException e) {
                return new byte[0];
            }
        }, command -> Thread.ofVirtual().start(command));
        byte[] bytes;
        try {
            bytes = body.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            closeQuietly(r.body());
            bytes = body.getNow(new byte[0]);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeQuietly(r.body());
            return;
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        boolean sse = r.headers().firstValue("Content-Type").orElse("").toLowerCase(java.util.Locale.ROOT)
                .contains("text/event-stream");
        if (sse) {
            ServerSentEvents.data(text).forEach(d -> parse(d, messages, unreadable));
        } else if (!text.isBlank()) {
            parse(text, messages, unreadable);
        }
    }

    private static void parse(String text, List<ObjectNode> messages, List<String> unreadable) {
        JsonNode node;
        try {
            node = Json.mapper().readTree(text);
        } catch (RuntimeException e) {
            unreadable.add(text);
            return;
        }
        if (node instanceof ObjectNode o) {
            messages.add(o);
        } else if (node != null && node.isArray()) {
            for (JsonNode item : node) {
                if (item instanceof ObjectNode o) {
                    messages.add(o);
                } else {
                    unreadable.add(item.toString());
                }
            }
        } else {
            unreadable.add(text);
        }
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            // nothing more to read from it anyway
        }
    }
}
