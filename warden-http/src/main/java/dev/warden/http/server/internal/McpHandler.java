package dev.warden.http.server.internal;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ErrorRenderer;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.transport.Transport;
import dev.warden.http.server.HostPolicy;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import tools.jackson.databind.JsonNode;

/**
 * The MCP endpoint for the session-based versions of Streamable HTTP (2025-03-26 to 2025-11-25).
 * Each failure has its own status and a JSON-RPC error body without an id; none of them repeats
 * a header value or any other input back.
 */
public final class McpHandler extends Handler.Abstract {

    private static final SecureRandom RANDOM = new SecureRandom();
    static final String SESSION_HEADER = "Mcp-Session-Id";
    static final String VERSION_HEADER = "MCP-Protocol-Version";
    private static final String UNSUPPORTED_VERSION = "Bad request: unsupported MCP-Protocol-Version; supported: "
            + String.join(", ", ProtocolVersion.supportedWire());

    /** What the handler needs from the server's configuration. */
    public record Settings(String path, HostPolicy hosts, int maxBodyBytes, Duration retry, Duration resumeWindow,
                           Duration sessionIdleTimeout, Consumer<Transport> onSession,
                           dev.warden.core.error.ErrorBoundary boundary, Limits limits, InstantSource clock) {
    }

    /**
     * How much clients can make the server hold: sessions in total and per remote address, and
     * per session the requests in flight and the events buffered and kept for its streams.
     */
    public record Limits(int maxSessions, int maxSessionsPerAddress, int maxPendingRequests, int streamBufferEvents,
                         long streamBufferBytes, long retainedBytesPerSession) {
        public Limits {
            if (maxSessions < 1 || maxSessionsPerAddress < 1) {
                throw new IllegalArgumentException("session caps must be positive");
            }
        }

        HttpSessionTransport.Limits session() {
            return new HttpSessionTransport.Limits(new SseStream.Buffer(streamBufferEvents, streamBufferBytes),
                    retainedBytesPerSession, maxPendingRequests);
        }
    }

    private final Settings settings;
    private final ScheduledExecutorService timers;
    private final Map<String, HttpSessionTransport> sessions = new ConcurrentHashMap<>();
    private final java.util.Set<StatelessExchange> exchanges = ConcurrentHashMap.newKeySet();
    private final HttpCounters counters = new HttpCounters();
    /** Held while a new session is admitted against the caps; a lock, so no carrier is pinned on JDK 21. */
    private final java.util.concurrent.locks.ReentrantLock admission = new java.util.concurrent.locks.ReentrantLock();

    private final RequestDeadlines deadlines;

    public McpHandler(Settings settings, ScheduledExecutorService timers, RequestDeadlines deadlines) {
        this.settings = settings;
        this.timers = timers;
        this.deadlines = deadlines;
    }

    public int sessionCount() {
        expireIdle();
        return sessions.size();
    }

    public HttpCounters counters() {
        return counters;
    }

    /** Called periodically: keep-alive comments on open streams, and idle sessions closed. */
    public void tick() {
        expireIdle();
        sessions.values().forEach(HttpSessionTransport::keepAlive);
        exchanges.removeIf(StatelessExchange::isClosed);
        exchanges.forEach(StatelessExchange::keepAlive);
    }

    /** Closes the sessions idle for longer than the idle timeout, and forgets closed ones. */
    void expireIdle() {
        long now = settings.clock().millis();
        sessions.values().removeIf(t -> {
            if (t.isClosed()) {
                return true;
            }
            if (t.expired(now, settings.sessionIdleTimeout())) {
                t.close();
                counters.sessionsExpired.increment();
                return true;
            }
            return false;
        });
    }

    public void closeAll() {
        sessions.values().forEach(HttpSessionTransport::close);
        sessions.clear();
    }

    @Override
    public boolean handle(Request request, Response response, Callback whenDone) {
        Callback callback = deadlines.started(request, whenDone);
        if (!"POST".equals(request.getMethod())) {
            deadlines.answering(request); // no body to wait for
        }
        if (!settings.path().equals(Request.getPathInContext(request))) {
            Response.writeError(request, response, callback, 404);
            return true;
        }
        Optional<String> host = header(request, HttpHeader.HOST.asString())
                .or(() -> Optional.ofNullable(request.getHttpURI().getAuthority()));
        if (!settings.hosts().allowsHost(host) || !settings.hosts().allowsOrigin(header(request, "Origin"), host)) {
            error(response, callback, 403, JsonRpcError.INVALID_REQUEST,
                    "Forbidden: the Host or Origin header is not allowed for this server");
            return true;
        }
        switch (request.getMethod()) {
            case "POST" -> post(request, response, callback);
            case "GET" -> get(request, response, callback);
            case "DELETE" -> delete(request, response, callback);
            default -> {
                response.getHeaders().put(HttpHeader.ALLOW, "GET, POST, DELETE");
                error(response, callback, 405, JsonRpcError.INVALID_REQUEST,
                        "Method not allowed: the MCP endpoint takes GET, POST and DELETE");
            }
        }
        return true;
    }

    // ---- POST ---------------------------------------------------------------------------------

    private void post(Request request, Response response, Callback callback) {
        if (!isJson(header(request, HttpHeader.CONTENT_TYPE.asString()))) {
            error(response, callback, 415, JsonRpcError.INVALID_REQUEST,
                    "Unsupported media type: the body must be application/json");
            return;
        }
        Optional<String> accept = header(request, HttpHeader.ACCEPT.asString());
        if (!accepts(accept, "application/json") || !accepts(accept, "text/event-stream")) {
            error(response, callback, 406, JsonRpcError.INVALID_REQUEST,
                    "Not acceptable: the Accept header must list application/json and text/event-stream");
            return;
        }
        BodyReader.read(request, settings.maxBodyBytes(), outcome -> {
            switch (outcome) {
                case BodyReader.Outcome.Read read -> {
                    try {
                        received(request, response, callback, read.body());
                    } catch (RuntimeException | Error e) {
                        callback.failed(e); // what Jetty does with a handler that throws
                    }
                }
                case BodyReader.Outcome.TooLarge tooLarge -> error(response, callback, 413,
                        JsonRpcError.INVALID_REQUEST, "Payload too large: the limit is " + settings.maxBodyBytes()
                        + " bytes");
                case BodyReader.Outcome.Failed failed -> callback.failed(failed.cause());
            }
        });
    }

    /** The POST's body has arrived whole. */
    private void received(Request request, Response response, Callback callback, byte[] body) {
        deadlines.answering(request);
        Decoded decoded = JsonRpcCodec.decode(body);
        if (decoded instanceof Decoded.Invalid invalid) {
            // The codec's refusal (or, for a malformed response posted here, a plain one), recorded and rendered.
            Decoded.Refusal refusal = invalid.refusal().orElseGet(() -> new Decoded.Refusal(Optional.empty(),
                    JsonRpcError.INVALID_REQUEST, "Invalid request"));
            refuse(response, callback, 400, refusal.id(), ProtocolException.refusing(refusal), invalid.reason());
            return;
        }
        if (Stateless.applies(request, decoded)) {
            stateless(request, response, callback, decoded, body);
            return;
        }
        if (!versionHeaderValid(request)) {
            error(response, callback, 400, JsonRpcError.INVALID_REQUEST, UNSUPPORTED_VERSION);
            return;
        }
        List<RequestId> requests = requestIds(decoded);
        Optional<String> sessionId = header(request, SESSION_HEADER);
        HttpSessionTransport transport;
        if (sessionId.isEmpty()) {
            Optional<JsonRpcMessage.Request> initialize = initializeRequest(decoded);
            if (initialize.isEmpty()) {
                error(response, callback, 400, JsonRpcError.INVALID_REQUEST,
                        "Bad request: the Mcp-Session-Id header is required after initialization");
                return;
            }
            Optional<HttpSessionTransport> admitted = newSession(initialize.get(), Request.getRemoteAddr(request));
            if (admitted.isEmpty()) {
                counters.sessionsRefused.increment();
                response.getHeaders().put(HttpHeader.RETRY_AFTER, "60");
                refuse(response, callback, 503, Optional.of(initialize.get().id()), new ProtocolException(
                        JsonRpcError.INVALID_REQUEST, "Service unavailable: too many sessions are open and none is "
                        + "idle; retry later", ErrorCode.RATE_LIMITED));
                return;
            }
            transport = admitted.get();
            response.getHeaders().put(SESSION_HEADER, transport.sessionId());
        } else {
            Optional<HttpSessionTransport> known = session(request, response, callback);
            if (known.isEmpty()) {
                return;
            }
            transport = known.get();
        }
        if (decoded instanceof Decoded.Batch && !transport.version().map(ProtocolVersion::allowsBatches).orElse(false)) {
            // The session would refuse it with an id-less error that belongs to no stream: answered here instead.
            counters.requestsRefused.increment();
            error(response, callback, 400, JsonRpcError.INVALID_REQUEST,
                    "Invalid request: batches are not supported in the negotiated protocol version");
            return;
        }
        if (requests.isEmpty()) {
            // Notifications and responses: accepted, nothing to answer on this request.
            transport.deliver(body);
            response.setStatus(202);
            response.write(true, null, callback);
            return;
        }
        switch (transport.openStream(requests)) {
            case HttpSessionTransport.Result.Refused refused -> {
                counters.requestsRefused.increment();
                switch (refused.why()) {
                    // Answered with its own id (one request: a batch's duplicate is not singled out),
                    // on this POST alone: the request in flight with that id keeps its own answer.
                    case DUPLICATE_ID -> refuse(response, callback, 400,
                            requests.size() == 1 ? Optional.of(requests.get(0)) : Optional.empty(),
                            ProtocolException.invalidRequest("Invalid request: the id is already "
                                    + "in use by a request in flight in this session"));
                    case TOO_MANY_PENDING -> {
                        response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
                        refuse(response, callback, 429, Optional.empty(), new ProtocolException(
                                JsonRpcError.INVALID_REQUEST, "Too many requests: this session has "
                                + settings.limits().maxPendingRequests() + " requests in flight already",
                                ErrorCode.RATE_LIMITED));
                    }
                }
            }
            case HttpSessionTransport.Result.Opened opened -> {
                sseHeaders(response);
                opened.stream().attach(response, callback, 0, primes(transport), settings.retry().toMillis());
                transport.deliver(body);
            }
        }
    }

    /**
     * A new session, unless the caps are reached: at the cap (in total, or for the client's
     * address), the session idle for longest makes room; when none is idle, none is opened. The
     * decision is taken under a lock (so the caps hold under concurrent initializes); closing the
     * evicted session and connecting the new one happen after it, as both may take time.
     */
    private Optional<HttpSessionTransport> newSession(JsonRpcMessage.Request initialize, String address) {
        Limits limits = settings.limits();
        List<HttpSessionTransport> evicted = new ArrayList<>();
        HttpSessionTransport transport;
        admission.lock();
        try {
            if (sessions.size() >= limits.maxSessions() || countFrom(address) >= limits.maxSessionsPerAddress()) {
                expireIdle();
            }
            if (countFrom(address) >= limits.maxSessionsPerAddress()
                    && !evictOldestIdle(t -> t.remoteAddress().equals(address), evicted)) {
                return Optional.empty();
            }
            if (sessions.size() >= limits.maxSessions() && !evictOldestIdle(t -> true, evicted)) {
                return Optional.empty();
            }
            byte[] random = new byte[24];
            RANDOM.nextBytes(random);
            String id = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
            transport = new HttpSessionTransport(id, address, settings.resumeWindow(), timers,
                    limits.session(), settings.clock(), counters.streamsCut::increment);
            initialize.params().map(p -> p.get("protocolVersion")).filter(JsonNode::isString)
                    .map(v -> ProtocolVersion.negotiate(v.stringValue())).ifPresent(transport::version);
            sessions.put(id, transport);
        } finally {
            admission.unlock();
        }
        evicted.forEach(HttpSessionTransport::close);
        counters.sessionsOpened.increment();
        settings.onSession().accept(transport);
        return Optional.of(transport);
    }

    private long countFrom(String address) {
        return sessions.values().stream().filter(t -> t.remoteAddress().equals(address)).count();
    }

    /**
     * Takes out the idle session (among those {@code which} selects) last active longest ago, to be
     * closed by the caller; false if none is idle.
     */
    private boolean evictOldestIdle(java.util.function.Predicate<HttpSessionTransport> which,
                                    List<HttpSessionTransport> evicted) {
        Optional<HttpSessionTransport> oldest = sessions.values().stream().filter(which)
                .filter(HttpSessionTransport::idle)
                .min(java.util.Comparator.comparingLong(HttpSessionTransport::lastActive));
        oldest.ifPresent(t -> {
            sessions.remove(t.sessionId());
            evicted.add(t);
            counters.sessionsEvicted.increment();
        });
        return oldest.isPresent();
    }

    /**
     * A 2026-07-28 request: no session; the headers must agree with the body; a connection serves
     * this one request and closes.
     */
    private void stateless(Request request, Response response, Callback callback, Decoded decoded, byte[] body) {
        if (!(decoded instanceof Decoded.Message m)) {
            error(response, callback, 400, JsonRpcError.INVALID_REQUEST,
                    "Invalid request: this protocol version takes one message per request, not a batch");
            return;
        }
        if (!(m.message() instanceof JsonRpcMessage.Request r)) {
            // No client-to-server notifications are defined in this version over HTTP: accepted, nothing to do.
            response.setStatus(202);
            response.write(true, null, callback);
            return;
        }
        Optional<ProtocolException> refused = Stateless.check(request, r);
        if (refused.isPresent()) {
            refuse(response, callback, 400, Optional.of(r.id()), refused.get());
            return;
        }
        StatelessExchange exchange = new StatelessExchange(r.id(), request.getHeaders(), response, callback,
                new SseStream.Buffer(settings.limits().streamBufferEvents(), settings.limits().streamBufferBytes()),
                counters.streamsCut::increment, Request.getRemoteAddr(request));
        exchanges.add(exchange);
        request.addFailureListener(failure -> exchange.cancel());
        settings.onSession().accept(exchange);
        exchange.deliver(body);
    }

    /** Priming events (an id and empty data) are a 2025-11-25 addition: older clients would choke on them. */
    private static boolean primes(HttpSessionTransport transport) {
        return transport.version().map(v -> v.compareTo(ProtocolVersion.V2025_11_25) >= 0).orElse(false);
    }

    private static Optional<JsonRpcMessage.Request> initializeRequest(Decoded decoded) {
        if (decoded instanceof Decoded.Message m && m.message() instanceof JsonRpcMessage.Request r
                && Lifecycle.INITIALIZE.equals(r.method())) {
            return Optional.of(r);
        }
        return Optional.empty();
    }

    private static List<RequestId> requestIds(Decoded decoded) {
        List<RequestId> ids = new ArrayList<>();
        switch (decoded) {
            case Decoded.Message m -> {
                if (m.message() instanceof JsonRpcMessage.Request r) {
                    ids.add(r.id());
                }
            }
            case Decoded.Batch batch -> batch.items().forEach(item -> ids.addAll(requestIds(item)));
            case Decoded.Invalid invalid -> { }
        }
        return ids;
    }

    // ---- GET ----------------------------------------------------------------------------------

    private void get(Request request, Response response, Callback callback) {
        if (Stateless.headerSaysStateless(request)) {
            response.getHeaders().put(HttpHeader.ALLOW, "POST");
            error(response, callback, 405, JsonRpcError.INVALID_REQUEST,
                    "Method not allowed: this protocol version has no GET stream; use subscriptions/listen");
            return;
        }
        if (!accepts(header(request, HttpHeader.ACCEPT.asString()), "text/event-stream")) {
            error(response, callback, 406, JsonRpcError.INVALID_REQUEST,
                    "Not acceptable: the Accept header must list text/event-stream");
            return;
        }
        if (!versionHeaderValid(request)) {
            error(response, callback, 400, JsonRpcError.INVALID_REQUEST, UNSUPPORTED_VERSION);
            return;
        }
        Optional<HttpSessionTransport> transport = session(request, response, callback);
        if (transport.isEmpty()) {
            return;
        }
        Optional<String> lastEventId = header(request, "Last-Event-ID");
        if (lastEventId.isPresent()) {
            Optional<SseStream> stream = SseStream.streamOf(lastEventId.get()).flatMap(transport.get()::stream);
            var after = SseStream.sequenceOf(lastEventId.get());
            if (stream.isEmpty() || after.isEmpty()) {
                error(response, callback, 400, JsonRpcError.INVALID_REQUEST,
                        "Bad request: Last-Event-ID names no stream of this session that can be resumed");
                return;
            }
            sseHeaders(response);
            stream.get().attach(response, callback, after.getAsLong(), false, settings.retry().toMillis());
            return;
        }
        Optional<SseStream> standalone = transport.get().openStandalone();
        if (standalone.isEmpty()) {
            error(response, callback, 409, JsonRpcError.INVALID_REQUEST,
                    "Conflict: this session already has a GET stream open");
            return;
        }
        sseHeaders(response);
        standalone.get().attach(response, callback, 0, primes(transport.get()), settings.retry().toMillis());
    }

    // ---- DELETE -------------------------------------------------------------------------------

    private void delete(Request request, Response response, Callback callback) {
        Optional<HttpSessionTransport> transport = session(request, response, callback);
        if (transport.isEmpty()) {
            return;
        }
        sessions.remove(transport.get().sessionId());
        transport.get().close();
        response.setStatus(200);
        response.write(true, null, callback);
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** The request's session, or an error response (400 without the header, 404 if unknown or ended). */
    private Optional<HttpSessionTransport> session(Request request, Response response, Callback callback) {
        Optional<String> id = header(request, SESSION_HEADER);
        if (id.isEmpty()) {
            error(response, callback, 400, JsonRpcError.INVALID_REQUEST,
                    "Bad request: the Mcp-Session-Id header is required");
            return Optional.empty();
        }
        HttpSessionTransport transport = sessions.get(id.get());
        if (transport != null && transport.expired(settings.clock().millis(), settings.sessionIdleTimeout())
                && sessions.remove(id.get(), transport)) {
            transport.close();
            counters.sessionsExpired.increment();
        }
        if (transport == null || transport.isClosed()) {
            error(response, callback, 404, JsonRpcError.INVALID_REQUEST,
                    "Not found: the session does not exist or has ended; initialize a new one");
            return Optional.empty();
        }
        return Optional.of(transport);
    }

    /** Absent means 2025-03-26 (the spec's default); present, it must be a version this server speaks. */
    private static boolean versionHeaderValid(Request request) {
        return header(request, VERSION_HEADER).map(v -> ProtocolVersion.fromWire(v.trim()).isPresent()).orElse(true);
    }

    static void sseHeaders(Response response) {
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache, no-transform");
        response.getHeaders().put("X-Accel-Buffering", "no");
    }

    private static boolean isJson(Optional<String> contentType) {
        return contentType.map(ct -> ct.toLowerCase(Locale.ROOT).split(";", 2)[0].trim())
                .filter(ct -> ct.equals("application/json")).isPresent();
    }

    /** Whether an Accept header lists the type (or a wildcard that covers it). */
    static boolean accepts(Optional<String> accept, String type) {
        if (accept.isEmpty()) {
            return false;
        }
        String major = type.substring(0, type.indexOf('/'));
        for (String part : accept.get().split(",")) {
            String t = part.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
            if (t.equals(type) || t.equals("*/*") || t.equals(major + "/*")) {
                return true;
            }
        }
        return false;
    }

    private static Optional<String> header(Request request, String name) {
        return Optional.ofNullable(request.getHeaders().get(name));
    }

    /** A refusal at the HTTP level, without an id: rendered by the one renderer, like every error. */
    private void error(Response response, Callback callback, int status, int code, String message) {
        ErrorCode symbolic = switch (status) {
            case 403 -> ErrorCode.PERMISSION_DENIED;
            case 404 -> ErrorCode.NOT_FOUND;
            default -> ErrorCode.VALIDATION_ERROR;
        };
        refuse(response, callback, status, Optional.empty(), new ProtocolException(code, message, symbolic));
    }

    private void refuse(Response response, Callback callback, int status, Optional<RequestId> id,
                               ProtocolException e) {
        refuse(response, callback, status, id, e, "");
    }

    /** @param reason for the operator, in the incident only (the codec's reason for refusing, say) */
    private void refuse(Response response, Callback callback, int status, Optional<RequestId> id,
                               ProtocolException e, String reason) {
        write(response, callback, status, JsonRpcCodec.encode(new JsonRpcMessage.Failure(id,
                ErrorRenderer.rpcError(e, settings.boundary().refusal(e,
                        dev.warden.core.error.FailureContext.of("(http)"), reason)))));
    }

    private static void write(Response response, Callback callback, int status, String json) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        Content.Sink.write(response, true, json, callback);
    }
}
