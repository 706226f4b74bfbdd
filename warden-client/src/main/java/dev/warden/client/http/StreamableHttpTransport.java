package dev.warden.client.http;

import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.headers.ParamHeaders;
import dev.warden.core.transport.RequestMetadata;
import dev.warden.core.transport.Route;
import dev.warden.core.transport.SessionExpiredException;
import dev.warden.core.transport.Transport;
import dev.warden.core.transport.TransportClosedException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The client side of Streamable HTTP, on the JDK's HTTP client: each message is a POST; answers
 * come back as JSON or as an event stream. In the session-based versions (2025-03-26 to
 * 2025-11-25) the session id from {@code initialize} goes on every later request (a 404 for it is
 * {@link SessionExpiredException}, so the client starts a new session), a broken stream is resumed
 * with {@code Last-Event-ID}, and a GET stream carries what the server sends outside our requests.
 * A stateless request (2026-07-28, its version in {@code _meta}) carries the request-metadata
 * headers ({@link RequestLabels}) and is read on its own thread; cancelling it closes its stream.
 *
 * <p>It never decodes what it sends: the session hands over each message beside its frame. A frame
 * sent alone (a batch of answers) is posted as a message that is not a request.
 */
public final class StreamableHttpTransport implements Transport, RequestMetadata {

    private static final System.Logger LOG = System.getLogger(StreamableHttpTransport.class.getName());
    /** Longest error body read for a JSON-RPC error; error answers are small. */
    static final int MAX_ERROR_BODY = 64 * 1024;

    private final URI endpoint;
    private final HttpExchanges exchanges;
    private final Inbound inbound = new Inbound();
    private final EventStreams streams;
    private final RequestLabels labels = new RequestLabels();
    private final StatelessCalls stateless = new StatelessCalls();

    private StreamableHttpTransport(URI endpoint, Map<String, String> headers,
            Optional<HttpAuthorization> authorization) {
        this.endpoint = endpoint;
        this.exchanges = new HttpExchanges(endpoint, headers, authorization);
        this.streams = new EventStreams(exchanges, inbound);
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
        t.inbound.maxMessageBytes(maxMessageBytes);
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

    /** The MCP endpoint this transport posts to. */
    public URI endpoint() {
        return endpoint;
    }

    public Optional<String> sessionId() {
        return exchanges.sessionId();
    }

    /** The version negotiated at initialize, sent as {@code MCP-Protocol-Version} from then on. */
    @Override
    public void protocolVersion(String version) {
        exchanges.protocolVersion(version);
    }

    /**
     * The tools' {@code x-mcp-header} annotations, by tool name (from the last {@code tools/list}):
     * each call's annotated arguments are mirrored into {@code Mcp-Param-*} headers.
     */
    @Override
    public void paramHeaders(Map<String, ParamHeaders> byTool) {
        labels.replace(byTool);
    }

    /** Adds annotations from one more page of a listing (a proxy forwarding {@code tools/list} pages as they come). */
    @Override
    public void addParamHeaders(Map<String, ParamHeaders> byTool) {
        labels.add(byTool);
    }

    /**
     * Where each request's W3C trace headers come from: the client's telemetry gives the context
     * it put in the request's {@code _meta} ({@link #traceHeadersFromMeta} for a caller that puts
     * its own there, a gateway's upstream spans); none unless set, so a forwarded context never goes.
     */
    public void traceHeaders(java.util.function.Function<JsonRpcMessage.Request, Map<String, String>> source) {
        labels.traceHeaders(source);
    }

    /** The W3C trace context in a request's {@code _meta}, for {@link #traceHeaders} of a caller that put it there. */
    public static Map<String, String> traceHeadersFromMeta(JsonRpcMessage.Request request) {
        return RequestLabels.fromMeta(request);
    }

    @Override
    public Optional<RequestMetadata> requestMetadata() {
        return Optional.of(this);
    }

    @Override
    public void start(Listener listener) {
        inbound.start(Objects.requireNonNull(listener, "listener"));
    }

    /** A frame alone (a batch of answers): posted as a message that is not a request, for a quick 202. */
    @Override
    public void send(String frame) {
        requireOpen();
        post(frame, Optional.empty());
    }

    @Override
    public void send(String frame, JsonRpcMessage message, Route route) {
        if (message instanceof JsonRpcMessage.Request request) {
            send(frame, request, route, new CompletableFuture<>());
            return;
        }
        requireOpen();
        if (message instanceof JsonRpcMessage.Notification n && "notifications/cancelled".equals(n.method())
                && stateless.cancel(n)) {
            return; // closing that request's stream was the cancellation (2026-07-28 over HTTP)
        }
        post(frame, Optional.empty()); // notifications and responses: a quick 202
        if (message instanceof JsonRpcMessage.Notification n && "notifications/initialized".equals(n.method())) {
            streams.listen();
        }
    }

    /**
     * A request's POST may stay open until its answer (a JSON response), so it runs on its own
     * thread; a failure there fails the request through the listener.
     */
    @Override
    public void send(String frame, JsonRpcMessage.Request request, Route route, CompletableFuture<?> answered) {
        requireOpen();
        boolean isStateless = RequestLabels.metaVersion(request).isPresent();
        Thread poster = Thread.ofVirtual().name("warden-http-post").unstarted(() -> {
            try {
                post(frame, Optional.of(request));
            } catch (TransportClosedException e) {
                inbound.listener().ifPresent(l -> l.onSendFailed(request.id(), e));
            } finally {
                if (isStateless) {
                    stateless.ended(request.id());
                }
            }
        });
        if (isStateless) {
            stateless.started(request.id(), poster);
        }
        poster.start();
    }

    private void requireOpen() {
        if (inbound.closed()) {
            throw new TransportClosedException("the HTTP transport is closed", null);
        }
    }

    private void post(String frame, Optional<JsonRpcMessage.Request> request) {
        HttpResponse<InputStream> response = exchanges.send(() -> {
            HttpRequest.Builder b = exchanges.request()
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(frame));
            request.ifPresent(r -> labels.label(b, r));
            return b;
        });
        if (request.filter(r -> "initialize".equals(r.method())).isPresent()) {
            // A session is assigned only with the InitializeResult; the header on anything else is ignored.
            response.headers().firstValue("Mcp-Session-Id").ifPresent(exchanges::sessionId);
        }
        Set<RequestId> ids = request.map(r -> Set.of(r.id())).orElse(Set.of());
        int status = response.statusCode();
        if (status == 404 && exchanges.sessionId().isPresent()) {
            HttpExchanges.drain(response);
            throw new SessionExpiredException("the server answered 404 for this session");
        }
        if (status == 202) {
            HttpExchanges.drain(response);
            return;
        }
        if (status != 200) {
            // 2026-07-28 carries request errors with HTTP statuses (400 for -32022, 404 for -32601):
            // a JSON-RPC error answering one of these requests is that request's answer. Any other
            // body is the server's and not an answer, so it is not read into the session.
            Optional<byte[]> answer = errorAnswer(response, ids);
            if (answer.isPresent()) {
                inbound.deliver(answer.get());
                return;
            }
            throw new TransportClosedException("the server answered HTTP " + status, null);
        }
        String type = response.headers().firstValue("Content-Type").orElse("");
        if (type.startsWith("text/html")) {
            // A web page (a login form, a proxy's), not an answer: the request fails now, not at its timeout.
            HttpExchanges.drain(response);
            throw new TransportClosedException("the server answered HTTP 200 with an HTML page", null);
        }
        boolean statelessCall = ids.stream().anyMatch(stateless::inFlight);
        if (type.startsWith("text/event-stream") && statelessCall) {
            // Read here, on this request's own thread; cancelling closes the stream (no resumption in this version).
            ids.forEach(id -> stateless.reading(id, response.body()));
            inbound.readEvents(response.body(), new HashSet<>(ids), new Inbound.StreamState());
        } else if (type.startsWith("text/event-stream")) {
            Thread.ofVirtual().name("warden-http-stream").start(() -> streams.readResuming(response.body(), ids));
        } else {
            inbound.readJson(response.body());
        }
    }

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

    /** Ends the session on the server (DELETE, best effort) and stops. */
    @Override
    public void close() {
        if (!inbound.close()) {
            return;
        }
        exchanges.endSession(LOG);
        inbound.listener().ifPresent(Listener::onClose);
    }
}
