package dev.warden.http.server.internal.route;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.identity.Caller;
import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.http.server.internal.request.BodyReader;
import dev.warden.http.server.internal.request.Headers;
import dev.warden.http.server.internal.request.InFlight;
import dev.warden.http.server.internal.request.RefusalSpans;
import dev.warden.http.server.internal.request.Refusals;
import dev.warden.http.server.internal.request.RequestDeadlines;
import dev.warden.http.server.internal.request.TraceHeaders;
import dev.warden.http.server.internal.session.HttpCounters;
import dev.warden.http.server.internal.session.HttpSessionTransport;
import dev.warden.http.server.internal.session.Sessions;
import dev.warden.http.server.internal.settings.EndpointSettings;
import dev.warden.http.server.internal.stateless.Stateless;
import dev.warden.http.server.internal.stateless.StatelessExchanges;
import dev.warden.http.server.internal.stream.StreamOpening;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import tools.jackson.databind.JsonNode;

/**
 * A POST: its body read (with no thread waiting for it), decoded, and delivered to its session,
 * a new one for an initialize, or to an exchange of its own for a 2026-07-28 request. Requests are
 * answered on an event stream opened for them; notifications and responses with 202.
 */
final class Posts {

    private final EndpointSettings settings;
    private final RequestDeadlines deadlines;
    private final HttpCounters counters;
    private final Refusals refusals;
    private final Sessions sessions;
    private final StatelessExchanges exchanges;

    /** What a request gets while the server drains: the request was fine, this replica is going away. */
    static final String DRAINING = "Service unavailable: this server is shutting down; retry the request";
    /** Soon: behind a load balancer the retry reaches another replica. */
    static final int DRAINING_RETRY_AFTER_SECONDS = 1;

    Posts(EndpointSettings settings, RequestDeadlines deadlines, HttpCounters counters, Refusals refusals,
          Sessions sessions, StatelessExchanges exchanges) {
        this.settings = settings;
        this.deadlines = deadlines;
        this.counters = counters;
        this.refusals = refusals;
        this.sessions = sessions;
        this.exchanges = exchanges;
    }

    void post(Request request, Response response, Callback callback, Optional<Caller> caller) {
        if (!Headers.isJson(Headers.header(request, HttpHeader.CONTENT_TYPE.asString()))) {
            refusals.error(response, callback, 415, JsonRpcError.INVALID_REQUEST,
                    "Unsupported media type: the body must be application/json");
            return;
        }
        Optional<String> accept = Headers.header(request, HttpHeader.ACCEPT.asString());
        if (!Headers.accepts(accept, "application/json") || !Headers.accepts(accept, "text/event-stream")) {
            refusals.error(response, callback, 406, JsonRpcError.INVALID_REQUEST,
                    "Not acceptable: the Accept header must list application/json and text/event-stream");
            return;
        }
        BodyReader.read(request, settings.maxBodyBytes(), outcome -> {
            switch (outcome) {
                case BodyReader.Outcome.Read read -> {
                    try {
                        received(request, response, callback, read.body(), caller);
                    } catch (RuntimeException | Error e) {
                        callback.failed(e); // what Jetty does with a handler that throws
                    }
                }
                case BodyReader.Outcome.TooLarge tooLarge -> refusals.error(response, callback, 413,
                        JsonRpcError.INVALID_REQUEST, "Payload too large: the limit is " + settings.maxBodyBytes()
                        + " bytes");
                case BodyReader.Outcome.Failed failed -> callback.failed(failed.cause());
            }
        });
    }

    /** The body has arrived whole. */
    private void received(Request request, Response response, Callback callback, byte[] body,
                          Optional<Caller> caller) {
        deadlines.answering(request);
        Decoded decoded = JsonRpcCodec.decode(body);
        RefusalSpans.parsed(request, decoded); // a refusal from here on names the method
        if (decoded instanceof Decoded.Invalid invalid) {
            // The codec's refusal (or, for a malformed response posted here, a plain one), recorded and rendered.
            Decoded.Refusal refusal = invalid.refusal().orElseGet(() -> new Decoded.Refusal(Optional.empty(),
                    JsonRpcError.INVALID_REQUEST, "Invalid request"));
            refusals.refuse(response, callback, 400, refusal.id(), ProtocolException.refusing(refusal),
                    invalid.reason());
            return;
        }
        List<RequestId> asked = requestIds(decoded);
        if (!settings.auth().mayCall(caller, toolsCalled(decoded), asked.size() == 1 ? Optional.of(asked.get(0))
                : Optional.empty(), response, callback, refusals)) {
            return;
        }
        if (!requestIds(decoded).isEmpty()) {
            // A new request while draining is refused, retryably; responses and notifications still
            // pass, so that the calls in flight get their elicitations answered and can be cancelled.
            if (!settings.gate().enter().getAsBoolean()) {
                List<RequestId> ids = requestIds(decoded);
                refusals.retryLater(response, callback, 503, DRAINING_RETRY_AFTER_SECONDS,
                        ids.size() == 1 ? Optional.of(ids.get(0)) : Optional.empty(),
                        new ProtocolException(JsonRpcError.INTERNAL_ERROR, DRAINING, ErrorCode.RATE_LIMITED));
                return;
            }
            Callback counted = InFlight.exitingWhenDone(callback, settings.gate().exit());
            try {
                admitted(request, response, counted, decoded, body, caller);
            } catch (RuntimeException | Error e) {
                counted.failed(e); // the count goes down however the request ends (post() fails the same callback)
            }
            return;
        }
        admitted(request, response, callback, decoded, body, caller);
    }

    /** A message the server takes: a request admitted while serving, or a notification or response. */
    private void admitted(Request request, Response response, Callback callback, Decoded decoded, byte[] body,
                          Optional<Caller> caller) {
        if (Stateless.applies(request, decoded)) {
            exchanges.serve(request, response, callback, decoded, body, caller);
            return;
        }
        if (!Headers.versionValid(request)) {
            refusals.error(response, callback, 400, JsonRpcError.INVALID_REQUEST, Headers.UNSUPPORTED_VERSION);
            return;
        }
        Optional<HttpSessionTransport> session = Headers.header(request, Headers.SESSION).isEmpty()
                ? initialize(request, response, callback, decoded, caller)
                : sessions.of(request, response, callback, caller);
        session.ifPresent(transport -> deliver(request, response, callback, transport, decoded, body));
    }

    /** A new session for an initialize, or a refusal: no other request comes without a session id. */
    private Optional<HttpSessionTransport> initialize(Request request, Response response, Callback callback,
                                                      Decoded decoded, Optional<Caller> caller) {
        Optional<JsonRpcMessage.Request> initialize = initializeRequest(decoded);
        if (initialize.isEmpty()) {
            refusals.error(response, callback, 400, JsonRpcError.INVALID_REQUEST,
                    "Bad request: the Mcp-Session-Id header is required after initialization");
            return Optional.empty();
        }
        Optional<HttpSessionTransport> admitted = sessions.admit(initialize.get(), Request.getRemoteAddr(request),
                caller);
        if (admitted.isEmpty()) {
            counters.sessionsRefused.increment();
            refusals.retryLater(response, callback, 503, Sessions.FULL_RETRY_SECONDS, Optional.of(initialize.get().id()),
                    Refusals.tooManySessions());
            return Optional.empty();
        }
        response.getHeaders().put(Headers.SESSION, admitted.get().sessionId());
        return admitted;
    }

    /** Hands the messages to their session; requests get an event stream for their answers. */
    private void deliver(Request request, Response response, Callback callback, HttpSessionTransport transport,
                         Decoded decoded, byte[] body) {
        List<RequestId> requests = requestIds(decoded);
        if (decoded instanceof Decoded.Batch && !transport.version().map(ProtocolVersion::allowsBatches).orElse(false)) {
            // The session would refuse it with an id-less error that belongs to no stream: answered here instead.
            counters.requestsRefused.increment();
            refusals.error(response, callback, 400, JsonRpcError.INVALID_REQUEST,
                    "Invalid request: batches are not supported in the negotiated protocol version");
            return;
        }
        if (requests.isEmpty()) {
            // Notifications and responses: accepted, nothing to answer on this request (an answer to
            // another replica's question, or a cancellation of its request, goes on to it).
            sessions.relay().deliver(transport, decoded, body);
            response.setStatus(202);
            response.write(true, null, callback);
            return;
        }
        switch (transport.openStream(requests)) {
            case StreamOpening.Refused refused -> {
                counters.requestsRefused.increment();
                switch (refused.why()) {
                    // Answered with its own id (one request: a batch's duplicate is not singled out),
                    // on this POST alone: the request in flight with that id keeps its own answer.
                    case DUPLICATE_ID -> refusals.refuse(response, callback, 400,
                            requests.size() == 1 ? Optional.of(requests.get(0)) : Optional.empty(),
                            ProtocolException.invalidRequest("Invalid request: the id is already "
                                    + "in use by a request in flight in this session"));
                    case CLOSED -> refusals.error(response, callback, 404, JsonRpcError.INVALID_REQUEST,
                            Sessions.NOT_FOUND);
                    case TOO_MANY_PENDING -> refusals.retryLater(response, callback, 429, 1, Optional.empty(),
                            new ProtocolException(JsonRpcError.INVALID_REQUEST, "Too many requests: this session has "
                                    + settings.limits().maxPendingRequests() + " requests in flight already",
                                    ErrorCode.RATE_LIMITED));
                }
            }
            case StreamOpening.Opened opened -> {
                Headers.sse(response);
                opened.stream().attachNew(response, callback, transport.primes(), settings.retry().toMillis());
                sessions.relay().requested(transport, decoded); // told to the other copies once this one answers
                TraceHeaders.of(request).ifPresent(trace -> transport.traced(requests, trace));
                transport.deliver(body);
            }
        }
    }

    private static Optional<JsonRpcMessage.Request> initializeRequest(Decoded decoded) {
        if (decoded instanceof Decoded.Message m && m.message() instanceof JsonRpcMessage.Request r
                && Lifecycle.INITIALIZE.equals(r.method())) {
            return Optional.of(r);
        }
        return Optional.empty();
    }

    /** The names of the tools a message (or each message of a batch) calls, for their scopes. */
    private static List<String> toolsCalled(Decoded decoded) {
        List<String> tools = new ArrayList<>();
        switch (decoded) {
            case Decoded.Message m -> {
                if (m.message() instanceof JsonRpcMessage.Request r && "tools/call".equals(r.method())) {
                    r.params().map(p -> p.get("name")).filter(JsonNode::isString)
                            .ifPresent(name -> tools.add(name.stringValue()));
                }
            }
            case Decoded.Batch batch -> batch.items().forEach(item -> tools.addAll(toolsCalled(item)));
            case Decoded.Invalid invalid -> { }
        }
        return tools;
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
}
