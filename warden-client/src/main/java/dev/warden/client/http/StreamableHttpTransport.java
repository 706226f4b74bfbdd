package dev.warden.client.http;

import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.ParamHeaders;
import dev.warden.core.transport.SessionExpiredException;
import dev.warden.core.transport.Transport;
import dev.warden.core.transport.TransportClosedException;
import dev.warden.core.transport.UnauthorizedException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The client side of Streamable HTTP (session-based versions, 2025-03-26 to 2025-11-25), on the
 * JDK's HTTP client: each frame is a POST; answers come back as JSON or as an event stream, which
 * is resumed with {@code Last-Event-ID} after the server's {@code retry} delay if it breaks before
 * the answer. The session id from {@code initialize} goes on every later request; a 404 for it is
 * reported as {@link SessionExpiredException} so the client starts a new session.
 */
public final class StreamableHttpTransport implements Transport {

    private static final System.Logger LOG = System.getLogger(StreamableHttpTransport.class.getName());
    /** Resumption attempts per broken stream before its requests are given up. */
    static final int MAX_RESUMES = 5;

    private final URI endpoint;
    private final HttpClient http;
    private final Map<String, String> headers;
    private final Object input = new Object();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Listener listener;
    private volatile Optional<String> sessionId = Optional.empty();
    private volatile Optional<String> protocolVersion = Optional.empty();

    /** Authorization attempts for one message: a 401, then a 403 step-up, then a last try. */
    static final int MAX_AUTHORIZATIONS = 2;

    private final Optional<HttpAuthorization> authorization;

    private StreamableHttpTransport(URI endpoint, Map<String, String> headers,
            Optional<HttpAuthorization> authorization) {
        this.endpoint = endpoint;
        this.headers = Map.copyOf(headers);
        this.authorization = authorization;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    public static StreamableHttpTransport of(URI endpoint) {
        return of(endpoint, Map.of());
    }

    /** @param headers sent with every request (an {@code Authorization} header, say) */
    public static StreamableHttpTransport of(URI endpoint, Map<String, String> headers) {
        return of(endpoint, headers, Optional.empty());
    }

    /** @param authorization answers the server's 401 and 403 challenges (OAuth, say) */
    public static StreamableHttpTransport of(URI endpoint, HttpAuthorization authorization) {
        return of(endpoint, Map.of(), Optional.of(Objects.requireNonNull(authorization, "authorization")));
    }

    /** Headers on every request, and an authorization that answers the server's challenges. */
    public static StreamableHttpTransport of(URI endpoint, Map<String, String> headers,
            HttpAuthorization authorization) {
        return of(endpoint, headers, Optional.of(Objects.requireNonNull(authorization, "authorization")));
    }

    /**
     * Headers, an optional authorization, and the largest answer accepted (a JSON body or one
     * event's data); a larger one fails its request with {@code MessageTooLargeException}.
     */
    public static StreamableHttpTransport of(URI endpoint, Map<String, String> headers,
            Optional<HttpAuthorization> authorization, int maxMessageBytes) {
        if (maxMessageBytes < 1024) {
            throw new IllegalArgumentException("maxMessageBytes must be at least 1024, got " + maxMessageBytes);
        }
        StreamableHttpTransport t = of(endpoint, headers, authorization);
        t.maxMessageBytes = maxMessageBytes;
        return t;
    }

    private static StreamableHttpTransport of(URI endpoint, Map<String, String> headers,
            Optional<HttpAuthorization> authorization) {
        Objects.requireNonNull(endpoint, "endpoint");
        if (!"http".equals(endpoint.getScheme()) && !"https".equals(endpoint.getScheme())) {
            throw new IllegalArgumentException("endpoint must be an http or https URL, got " + endpoint);
        }
        return new StreamableHttpTransport(endpoint, headers, authorization);
    }

    public Optional<String> sessionId() {
        return sessionId;
    }

    /** The version negotiated at initialize, sent as {@code MCP-Protocol-Version} from then on. */
    public void protocolVersion(String version) {
        this.protocolVersion = Optional.of(version);
    }

    @Override
    public void start(Listener listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    @Override
    public void send(String frame) {
        if (closed.get()) {
            throw new TransportClosedException("the HTTP transport is closed", null);
        }
        Decoded decoded = JsonRpcCodec.decode(frame);
        if (cancelsStatelessRequest(decoded)) {
            return; // closing that request's stream was the cancellation (2026-07-28 over HTTP)
        }
        Set<RequestId> requests = requestIds(decoded);
        if (requests.isEmpty()) {
            post(frame, decoded, requests); // notifications and responses: a quick 202
            if (isInitialized(decoded)) {
                // Requests the server makes outside any call of ours (and notifications) come on a GET stream.
                // It is open (or refused) before the first request goes out: a server that sends what
                // concerns no request of ours to that stream, and drops it while none is open, would
                // otherwise lose a question asked during our first call (the TypeScript SDK's servers do).
                CompletableFuture<Void> answered = new CompletableFuture<>();
                Thread.ofVirtual().name("warden-http-listen").start(() -> listen(answered));
                awaitListen(answered);
            }
            return;
        }
        // A request's POST may stay open until its answer (a JSON response), so it runs on its own
        // thread; a failure there fails the request through the listener.
        boolean stateless = decoded instanceof Decoded.Message m && m.message() instanceof JsonRpcMessage.Request r
                && metaVersion(r).isPresent();
        Thread poster = Thread.ofVirtual().name("warden-http-post").unstarted(() -> {
            try {
                post(frame, decoded, requests);
            } catch (TransportClosedException e) {
                Listener l = listener;
                if (l != null) {
                    requests.forEach(id -> l.onSendFailed(id, e));
                }
            } finally {
                if (stateless) {
                    requests.forEach(statelessCalls::remove);
                    requests.forEach(statelessStreams::remove);
                }
            }
        });
        if (stateless) {
            requests.forEach(id -> statelessCalls.put(id, poster));
        }
        poster.start();
    }

    /** Stateless requests in flight, by id: their POST thread, interrupted to close the stream. */
    private final Map<RequestId, Thread> statelessCalls = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<RequestId, InputStream> statelessStreams = new java.util.concurrent.ConcurrentHashMap<>();

    private boolean cancelsStatelessRequest(Decoded decoded) {
        if (decoded instanceof Decoded.Message m && m.message() instanceof JsonRpcMessage.Notification n
                && "notifications/cancelled".equals(n.method())) {
            Optional<RequestId> id = n.params().flatMap(p -> RequestId.fromJson(p.get("requestId")));
            Thread poster = id.map(statelessCalls::remove).orElse(null);
            InputStream stream = id.map(statelessStreams::remove).orElse(null);
            if (stream != null) {
                try {
                    stream.close(); // ends the HTTP exchange: the server sees the stream close
                } catch (IOException e) {
                    // already closed
                }
                return true;
            }
            if (poster != null) {
                poster.interrupt();
                return true;
            }
        }
        return false;
    }

    private static Optional<String> metaVersion(JsonRpcMessage.Request request) {
        return request.params().map(p -> p.get("_meta")).filter(tools.jackson.databind.JsonNode::isObject)
                .map(meta -> meta.get("io.modelcontextprotocol/protocolVersion"))
                .filter(tools.jackson.databind.JsonNode::isString).map(tools.jackson.databind.JsonNode::stringValue);
    }

    /**
     * The request-metadata headers 2026-07-28 requires (harmless to older servers): the version
     * from the body's {@code _meta}, {@code Mcp-Method}, and {@code Mcp-Name} for calls, reads and
     * prompts, in the {@code =?base64?…?=} form when not plain ASCII.
     */
    private void requestHeaders(HttpRequest.Builder b, Decoded decoded) {
        if (!(decoded instanceof Decoded.Message m) || !(m.message() instanceof JsonRpcMessage.Request r)) {
            return;
        }
        metaVersion(r).ifPresent(v -> b.setHeader("MCP-Protocol-Version", v));
        b.header("Mcp-Method", r.method());
        String field = switch (r.method()) {
            case "tools/call", "prompts/get" -> "name";
            case "resources/read" -> "uri";
            default -> null;
        };
        if (field != null) {
            r.params().map(p -> p.get(field)).filter(tools.jackson.databind.JsonNode::isString)
                    .map(tools.jackson.databind.JsonNode::stringValue)
                    .ifPresent(name -> b.header("Mcp-Name", headerValue(name)));
        }
        if ("tools/call".equals(r.method())) {
            r.params().map(p -> p.path("name").asString("")).map(paramHeaders::get).ifPresent(annotated ->
                    annotated.headers(r.params().get().path("arguments")).forEach(b::header));
        }
    }

    private volatile Map<String, ParamHeaders> paramHeaders = Map.of();

    /**
     * The tools' {@code x-mcp-header} annotations, by tool name (from the last {@code tools/list}):
     * each call's annotated arguments are mirrored into {@code Mcp-Param-*} headers.
     */
    public void paramHeaders(Map<String, ParamHeaders> byTool) {
        this.paramHeaders = Map.copyOf(byTool);
    }

    /** Adds annotations from one more page of a listing (a proxy forwarding {@code tools/list} pages as they come). */
    public void addParamHeaders(Map<String, ParamHeaders> byTool) {
        if (byTool.isEmpty()) {
            return;
        }
        synchronized (this) {
            Map<String, ParamHeaders> merged = new java.util.HashMap<>(paramHeaders);
            merged.putAll(byTool);
            if (merged.size() <= 100_000) {
                this.paramHeaders = Map.copyOf(merged);
            }
        }
    }

    static String headerValue(String value) {
        return value.isEmpty() ? "=?base64??=" : ParamHeaders.encode(value);
    }

    private void post(String frame, Decoded decoded, Set<RequestId> requests) {
        HttpResponse<InputStream> response = exchange(() -> {
            HttpRequest.Builder request = base(HttpRequest.newBuilder(endpoint))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(frame));
            requestHeaders(request, decoded);
            return request;
        });
        if (isInitialize(decoded)) {
            // A session is assigned only with the InitializeResult; the header on anything else is ignored.
            response.headers().firstValue("Mcp-Session-Id").ifPresent(id -> sessionId = Optional.of(id));
        }
        int status = response.statusCode();
        if (status == 404 && sessionId.isPresent()) {
            drain(response);
            throw new SessionExpiredException("the server answered 404 for this session");
        }
        if (status == 202) {
            drain(response);
            return;
        }
        if (status != 200) {
            // 2026-07-28 carries request errors with HTTP statuses (400 for -32022, 404 for -32601):
            // a JSON-RPC error answering one of these requests is that request's answer. Any other
            // body is the server's and not an answer, so it is not read into the session.
            Optional<byte[]> answer = errorAnswer(response, requests);
            if (answer.isPresent()) {
                deliver(answer.get());
                return;
            }
            throw new TransportClosedException("the server answered HTTP " + status, null);
        }
        String type = response.headers().firstValue("Content-Type").orElse("");
        boolean stateless = requests.stream().anyMatch(statelessCalls::containsKey);
        if (type.startsWith("text/event-stream") && stateless) {
            // Read here, on this request's own thread; cancelling closes the stream (no resumption in this version).
            requests.forEach(id -> statelessStreams.put(id, response.body()));
            read(response.body(), new HashSet<>(requests), new StreamState());
        } else if (type.startsWith("text/event-stream")) {
            Thread.ofVirtual().name("warden-http-stream").start(() -> readStream(response.body(), requests));
        } else {
            // A JSON answer is one line of JSON as far as size goes: bounded the same way.
            try (InputStream body = response.body()) {
                BoundedLines lines = new BoundedLines(body, maxMessageBytes);
                StringBuilder text = new StringBuilder();
                BoundedLines.Line line;
                while ((line = lines.next()) != null) {
                    if (line.oversized() || text.length() + line.text().length() > maxMessageBytes) {
                        tooLarge(line);
                        return;
                    }
                    text.append(line.text()).append('\n');
                }
                if (!text.toString().isBlank()) {
                    deliver(text.toString().getBytes(StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                throw new TransportClosedException("the answer could not be read", e);
            }
        }
    }

    /** The largest answer (a JSON body, or one event's data) this client accepts. */
    private volatile int maxMessageBytes = dev.warden.core.transport.StdioTransport.DEFAULT_MAX_MESSAGE_BYTES;

    /** An answer over the limit: the request it answers fails at once (its id read from the edges). */
    private void tooLarge(BoundedLines.Line line) {
        Listener l = listener;
        if (l != null && !closed.get()) {
            byte[] head = line.head() == null ? new byte[0] : line.head();
            byte[] tail = line.tail() == null ? new byte[0] : line.tail();
            synchronized (input) {
                // A refusal, not an answer: the session records it and renders it with a ref.
                l.onOversizedFrame(dev.warden.core.jsonrpc.FrameHints.of(head, tail),
                        dev.warden.core.error.ProtocolException.invalidRequest(
                                "Invalid request: the message exceeds the maximum size of " + maxMessageBytes
                                        + " bytes"));
            }
        }
    }

    /**
     * Sends, answering a 401 or a 403 {@code insufficient_scope} through the authorization (new
     * credentials, then the same message again); a refusal that remains is {@link
     * UnauthorizedException}, so the waiting request fails as unauthorized, not as a lost connection.
     */
    private HttpResponse<InputStream> exchange(java.util.function.Supplier<HttpRequest.Builder> request) {
        for (int attempt = 0; ; attempt++) {
            Optional<String> credentials = authorization.flatMap(HttpAuthorization::header);
            HttpRequest.Builder b = request.get();
            credentials.ifPresent(c -> b.setHeader("Authorization", c));
            HttpResponse<InputStream> response;
            try {
                response = http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
            } catch (IOException e) {
                throw new TransportClosedException("the HTTP request failed", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TransportClosedException("interrupted while sending", e);
            }
            int status = response.statusCode();
            if (status != 401 && status != 403) {
                return response;
            }
            List<String> challenges = response.headers().allValues("WWW-Authenticate");
            drain(response);
            if (authorization.isEmpty()) {
                throw new UnauthorizedException(status == 401
                        ? "The server requires authorization (HTTP 401) and none is configured"
                        : "The server refused access (HTTP 403)", null);
            }
            if (attempt >= MAX_AUTHORIZATIONS) {
                throw new UnauthorizedException("The server still refuses after authorization (HTTP " + status + ")",
                        null);
            }
            authorization.get().refused(endpoint, credentials, status, challenges);
        }
    }

    /** Longest error body read for a JSON-RPC error; error answers are small. */
    static final int MAX_ERROR_BODY = 64 * 1024;

    private static Optional<byte[]> errorAnswer(HttpResponse<InputStream> response, Set<RequestId> requests) {
        boolean json = response.headers().firstValue("Content-Type").orElse("").startsWith("application/json");
        try (InputStream body = response.body()) {
            if (!json || requests.isEmpty()) {
                body.readAllBytes();
                return Optional.empty();
            }
            byte[] bytes = body.readNBytes(MAX_ERROR_BODY + 1);
            if (bytes.length > MAX_ERROR_BODY) {
                return Optional.empty();
            }
            if (JsonRpcCodec.decode(bytes) instanceof Decoded.Message m && m.message() instanceof JsonRpcMessage.Failure f
                    && f.id().filter(requests::contains).isPresent()) {
                return Optional.of(bytes);
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static boolean isInitialize(Decoded decoded) {
        return decoded instanceof Decoded.Message m
                && m.message() instanceof JsonRpcMessage.Request r && "initialize".equals(r.method());
    }

    private static boolean isInitialized(Decoded decoded) {
        return decoded instanceof Decoded.Message m
                && m.message() instanceof JsonRpcMessage.Notification n && "notifications/initialized".equals(n.method());
    }

    /**
     * The GET stream for what the server sends unprompted. A server that offers none answers 405
     * and that is the end of it; a stream that breaks is reopened (resumed where it has event
     * ids) after the server's retry delay, growing to a minute while it keeps failing.
     */
    private void listen(CompletableFuture<Void> answered) {
        try {
            listenUntilClosed(answered);
        } finally {
            answered.complete(null);
        }
    }

    /** How long the first request waits for the server to answer the GET stream's request. */
    private static final java.time.Duration LISTEN_WAIT = java.time.Duration.ofSeconds(3);

    private static void awaitListen(CompletableFuture<Void> answered) {
        try {
            answered.get(LISTEN_WAIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // a server slow to answer a GET: go on without it, as before
        }
    }

    private void listenUntilClosed(CompletableFuture<Void> answered) {
        StreamState state = new StreamState();
        long failures = 0;
        while (!closed.get()) {
            Optional<String> lastEventId = state.lastEventId;
            try {
                HttpResponse<InputStream> response = exchange(() -> {
                    HttpRequest.Builder get = base(HttpRequest.newBuilder(endpoint))
                            .header("Accept", "text/event-stream").GET();
                    lastEventId.ifPresent(id -> get.header("Last-Event-ID", id));
                    return get;
                });
                answered.complete(null);
                if (response.statusCode() == 405 || response.statusCode() == 404) {
                    drain(response);
                    return;
                }
                if (response.statusCode() == 200) {
                    failures = 0;
                    read(response.body(), new HashSet<>(), state);
                } else {
                    drain(response);
                    failures++;
                }
            } catch (UnauthorizedException e) {
                LOG.log(System.Logger.Level.DEBUG, "the listen stream is not authorized; not listening");
                return;
            } catch (TransportClosedException e) {
                failures++;
            }
            try {
                Thread.sleep(Math.min(60_000, state.retryMillis << Math.min(6, failures)));
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Reads an event stream; if it ends before every request it carries is answered, resumes it. */
    private void readStream(InputStream body, Set<RequestId> requests) {
        Set<RequestId> open = new HashSet<>(requests);
        StreamState state = new StreamState();
        InputStream current = body;
        int resumes = 0;
        while (true) {
            read(current, open, state);
            if (open.isEmpty() || closed.get() || state.lastEventId.isEmpty() || resumes >= MAX_RESUMES) {
                if (!open.isEmpty() && !closed.get()) {
                    LOG.log(System.Logger.Level.DEBUG, "an event stream ended before its answer");
                }
                return;
            }
            resumes++;
            try {
                Thread.sleep(state.retryMillis);
                String lastEventId = state.lastEventId.get();
                HttpResponse<InputStream> resumed = exchange(() -> base(HttpRequest.newBuilder(endpoint))
                        .header("Accept", "text/event-stream")
                        .header("Last-Event-ID", lastEventId)
                        .GET());
                if (resumed.statusCode() != 200) {
                    drain(resumed);
                    return;
                }
                current = resumed.body();
            } catch (UnauthorizedException e) {
                return;
            } catch (TransportClosedException e) {
                LOG.log(System.Logger.Level.DEBUG, "resuming an event stream failed");
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static final class StreamState {
        Optional<String> lastEventId = Optional.empty();
        long retryMillis = 1000;
    }

    private void read(InputStream in, Set<RequestId> open, StreamState state) {
        try (in) {
            BoundedLines reader = new BoundedLines(in, maxMessageBytes);
            StringBuilder data = null;
            BoundedLines.Line next;
            while ((next = reader.next()) != null && !closed.get()) {
                if (next.oversized() || data != null && data.length() + next.text().length() > maxMessageBytes) {
                    // One event too large to keep: the request it answers fails now, not at its timeout.
                    tooLarge(next.oversized() ? next : new BoundedLines.Line("", true,
                            data.substring(0, Math.min(data.length(), dev.warden.core.jsonrpc.FrameHints.EDGE))
                                    .getBytes(StandardCharsets.UTF_8), new byte[0]));
                    data = null;
                    continue;
                }
                String line = next.text();
                if (line.isEmpty()) {
                    if (data != null && !data.isEmpty()) {
                        byte[] frame = data.toString().getBytes(StandardCharsets.UTF_8);
                        answered(frame).ifPresent(open::remove);
                        deliver(frame);
                    }
                    data = null;
                } else if (line.startsWith("data:")) {
                    String value = line.substring(line.startsWith("data: ") ? 6 : 5);
                    data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                } else if (line.startsWith("id:")) {
                    state.lastEventId = Optional.of(line.substring(3).trim());
                } else if (line.startsWith("retry:")) {
                    try {
                        state.retryMillis = Math.min(60_000, Math.max(0, Long.parseLong(line.substring(6).trim())));
                    } catch (NumberFormatException e) {
                        // a malformed retry field is ignored, as the SSE standard says
                    }
                }
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "an event stream broke");
        }
    }

    private static Optional<RequestId> answered(byte[] frame) {
        if (JsonRpcCodec.decode(frame) instanceof Decoded.Message m) {
            return switch (m.message()) {
                case JsonRpcMessage.Success s -> Optional.of(s.id());
                case JsonRpcMessage.Failure f -> f.id();
                default -> Optional.empty();
            };
        }
        return Optional.empty();
    }

    private static Set<RequestId> requestIds(Decoded decoded) {
        Set<RequestId> ids = new HashSet<>();
        if (decoded instanceof Decoded.Message m && m.message() instanceof JsonRpcMessage.Request r) {
            ids.add(r.id());
        } else if (decoded instanceof Decoded.Batch batch) {
            for (Decoded item : batch.items()) {
                if (item instanceof Decoded.Message m && m.message() instanceof JsonRpcMessage.Request r) {
                    ids.add(r.id());
                }
            }
        }
        return ids;
    }

    /** No timeout here: an answer may take as long as its call; the session's timeouts govern that. */
    private HttpRequest.Builder base(HttpRequest.Builder b) {
        headers.forEach(b::header);
        sessionId.ifPresent(id -> b.header("Mcp-Session-Id", id));
        protocolVersion.ifPresent(v -> b.header("MCP-Protocol-Version", v));
        return b;
    }

    private void deliver(byte[] frame) {
        Listener l = listener;
        if (l != null && !closed.get()) {
            synchronized (input) {
                l.onFrame(frame);
            }
        }
    }

    private static void drain(HttpResponse<InputStream> response) {
        try (InputStream body = response.body()) {
            body.readAllBytes();
        } catch (IOException e) {
            // nothing to keep
        }
    }

    /** Ends the session on the server (DELETE, best effort) and stops. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        sessionId.ifPresent(id -> {
            try {
                HttpRequest.Builder delete = base(HttpRequest.newBuilder(endpoint));
                authorization.flatMap(HttpAuthorization::header).ifPresent(c -> delete.setHeader("Authorization", c));
                http.send(delete.DELETE().timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.discarding());
            } catch (IOException | InterruptedException e) {
                LOG.log(System.Logger.Level.DEBUG, "ending the session failed");
            }
        });
        Listener l = listener;
        if (l != null) {
            l.onClose();
        }
    }
}
