package dev.warden.core.session;

import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Ping;
import dev.warden.core.transport.Route;
import dev.warden.core.transport.Transport;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import tools.jackson.databind.JsonNode;

/**
 * One JSON-RPC conversation over a {@link Transport}, symmetric for client, server and gateway.
 *
 * <p>Incoming requests run on virtual threads, so a slow handler never holds up another request,
 * and each gets exactly one answer unless the peer cancels it ({@link IncomingRequests}). Outgoing
 * requests are correlated by id and end in the peer's answer or in a {@link
 * dev.warden.core.error.LocalFailure}: timeout (idle, reset on progress, bounded by a maximum
 * total), local cancellation, or the transport closing ({@link PendingRequests}). Responses nobody
 * is waiting for are dropped and logged. What arrives is read and routed by {@link Inbox}; what
 * leaves goes through {@link Outbox}; the peer's notifications wait in a bounded {@link
 * NotificationQueue}. This class wires them together and closes them.
 */
public final class Session implements AutoCloseable {

    /** Far more than a peer's handled notifications ever queue; each waits with its parsed params. */
    public static final int DEFAULT_MAX_QUEUED_NOTIFICATIONS = 10_000;
    /** Far more than any client or server runs at once on one connection. */
    public static final int DEFAULT_MAX_CONCURRENT_REQUESTS = 1_000;
    /**
     * The method an incident names for a frame that never became a request (malformed JSON, an
     * invalid request, an oversized frame): there is no method to name.
     */
    static final String FRAME = "(frame)";

    private final Transport transport;
    private final Duration defaultTimeout;
    private final Duration drainTimeout;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CompletableFuture<Void> closedFuture = new CompletableFuture<>();
    private final Outbox outbox;
    private final PendingRequests pending;
    private final IncomingRequests incoming;
    private final NotificationQueue notifications;
    /** Messages received whose answer (if any) has not been written yet; drained on end of input. */
    private final Unanswered unanswered = new Unanswered();
    private final Inbox inbox;

    private Session(Builder builder) {
        this.transport = builder.transport;
        this.defaultTimeout = builder.defaultTimeout;
        this.drainTimeout = builder.drainTimeout;
        this.outbox = new Outbox(transport, builder.observer);
        this.pending = new PendingRequests(this, outbox, builder.deadlines, closed::get, builder.observer);
        Answers answers = new Answers(builder.boundary, builder.resultFilter);
        this.incoming = new IncomingRequests(this, new IncomingRequests.Handlers(builder.requestHandlers,
                builder.asyncHandlers, builder.inlineMethods, builder.fallbackRequestHandler),
                answers, builder.maxConcurrentRequests, closed::get);
        this.notifications = new NotificationQueue(builder.notificationHandlers,
                builder.fallbackNotificationHandler, builder.maxQueuedNotifications);
        this.inbox = new Inbox(this, incoming, pending, notifications, answers, outbox, unanswered, builder.observer);
    }

    public static Builder builder(Transport transport) {
        return new Builder(transport);
    }

    /** Adjusts a successful result before it is sent. */
    @FunctionalInterface
    public interface ResultFilter {
        JsonNode apply(JsonRpcMessage.Request request, JsonNode result);
    }

    /** Decides, before dispatch, whether a request may run now (e.g. nothing but ping before initialize). */
    @FunctionalInterface
    public interface RequestGate {
        RequestGate OPEN = request -> Optional.empty();

        /** An error to answer with instead of running the handler, or empty to run it. */
        Optional<ProtocolException> check(JsonRpcMessage.Request request);
    }

    public void start() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("session already started");
        }
        transport.start(inbox);
    }

    /** Notifications dropped so far because {@link Builder#maxQueuedNotifications} were waiting. */
    public long notificationsDropped() {
        return notifications.dropped();
    }

    /** Notifications waiting for their handler now. */
    public int notificationsQueued() {
        return notifications.queued();
    }

    /** Requests from the peer refused so far because {@link Builder#maxConcurrentRequests} were running. */
    public long requestsRefused() {
        return incoming.refused();
    }

    /** Whether the negotiated protocol version allows JSON-RPC batches (see {@link dev.warden.core.mcp.ProtocolVersion#allowsBatches}). */
    public void allowBatches(boolean allowed) {
        inbox.allowBatches(allowed);
    }

    public void gate(RequestGate gate) {
        incoming.gate(gate);
    }

    /** Completes when the transport has closed and every pending request has been failed. */
    public CompletableFuture<Void> closed() {
        return closedFuture;
    }

    /** Requests from the peer still being handled. */
    int inFlightCount() {
        return incoming.size();
    }

    /** Messages from the peer whose answer is not on the wire yet. */
    int unansweredCount() {
        return unanswered.count();
    }

    /** Waits until every message received has its answer on the wire (or needed none), at most {@code timeout}. */
    boolean awaitAnswered(Duration timeout) throws InterruptedException {
        return unanswered.awaitNone(timeout);
    }

    /** Requests to the peer still waiting for an answer. */
    int pendingCount() {
        return pending.size();
    }

    /**
     * Completes once every notification received before this call has been handled: a proxy
     * waits for it before passing on an answer, so the notifications a peer sent before
     * answering (log messages about the call, say) arrive before the answer there too.
     */
    public CompletableFuture<Void> notificationsHandled() {
        return notifications.handled();
    }

    public boolean isClosed() {
        return closed.get();
    }

    // ---- outgoing ----------------------------------------------------------------------------

    public OutgoingRequest request(String method, JsonNode params) {
        return request(method, params, RequestOptions.ofDefaults().withTimeout(defaultTimeout));
    }

    public OutgoingRequest request(String method, JsonNode params, RequestOptions options) {
        return pending.send(method, params, options, Handling.routeFor(this));
    }

    /**
     * A request about an incoming request, sent from any thread (a proxy relaying its upstream's
     * question, say): it travels on that request's stream, which the peer is sure to be reading,
     * rather than on a stream it may not have opened yet.
     */
    public OutgoingRequest request(String method, JsonNode params, RequestId about) {
        return pending.send(method, params, RequestOptions.ofDefaults().withTimeout(defaultTimeout),
                Route.during(Objects.requireNonNull(about, "about")));
    }

    public OutgoingRequest ping(Duration timeout) {
        return request(Ping.METHOD, Json.object(), RequestOptions.ofDefaults().withTimeout(timeout));
    }

    public void notify(String method, JsonNode params) {
        outbox.notify(method, params, Handling.routeFor(this));
    }

    /**
     * A notification about an incoming request, sent from any thread: it travels on that request's
     * stream (a long-lived {@code subscriptions/listen}, say).
     */
    public void notify(String method, JsonNode params, RequestId about) {
        outbox.notify(method, params, Route.during(Objects.requireNonNull(about, "about")));
    }

    /** Like {@link #notify} but a closed transport is not an error (progress racing a disconnect, say). */
    void notifyQuietly(String method, JsonNode params, Route route) {
        outbox.notifyQuietly(method, params, route);
    }

    /** Asks the transport to drop the connection carrying this request's stream (see {@link Transport#closeStream}). */
    boolean closeStream(RequestId request) {
        return outbox.closeStream(request);
    }

    // ---- closing -----------------------------------------------------------------------------

    /**
     * The peer sent its last message. Requests it already sent still get their answers (each
     * request gets exactly one), up to the drain timeout; our own pending requests can no longer be
     * answered and fail now. The session closes as soon as the last answer is written.
     */
    void drainThenClose() {
        pending.failAll();
        Thread.ofVirtual().name("warden-drain").start(() -> {
            try {
                awaitAnswered(drainTimeout);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            close();
        });
    }

    @Override
    public void close() {
        transport.close();
        shutdown();
    }

    /** The transport has closed: everything waiting on this session gets its answer, once. */
    void shutdown() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        pending.failAll();
        incoming.cancelAll();
        notifications.shutdown();
        closedFuture.complete(null);
    }

    public static final class Builder {
        private final Transport transport;
        private final Map<String, RequestHandler> requestHandlers = new HashMap<>();
        private final Map<String, AsyncRequestHandler> asyncHandlers = new HashMap<>();
        private final Set<String> inlineMethods = new HashSet<>();
        private final Map<String, NotificationHandler> notificationHandlers = new HashMap<>();
        private Optional<NotificationHandler> fallbackNotificationHandler = Optional.empty();
        private Optional<RequestHandler> fallbackRequestHandler = Optional.empty();
        private ErrorBoundary boundary = ErrorBoundary.ofDefaults();
        private ResultFilter resultFilter = (request, result) -> result;
        private Duration defaultTimeout = RequestOptions.DEFAULT_TIMEOUT;
        private Duration drainTimeout = Duration.ofSeconds(30);
        private int maxQueuedNotifications = DEFAULT_MAX_QUEUED_NOTIFICATIONS;
        private int maxConcurrentRequests = DEFAULT_MAX_CONCURRENT_REQUESTS;
        private Deadlines deadlines = Deadlines.SHARED;
        private SessionObserver observer = SessionObserver.NONE;

        private Builder(Transport transport) {
            this.transport = Objects.requireNonNull(transport, "transport");
        }

        public Builder onRequest(String method, RequestHandler handler) {
            Objects.requireNonNull(method, "method");
            requestHandlers.put(method, Objects.requireNonNull(handler, "handler"));
            return this;
        }

        /**
         * A handler that runs on the reader thread before the next message is read: for requests
         * whose effect later messages depend on ({@code initialize}). It must be quick.
         */
        public Builder onRequestInline(String method, RequestHandler handler) {
            onRequest(method, handler);
            inlineMethods.add(method);
            return this;
        }

        /** A handler that answers later without a thread of its own (see {@link AsyncRequestHandler}). */
        public Builder onRequestAsync(String method, AsyncRequestHandler handler) {
            Objects.requireNonNull(method, "method");
            asyncHandlers.put(method, Objects.requireNonNull(handler, "handler"));
            return this;
        }

        public Builder onNotification(String method, NotificationHandler handler) {
            Objects.requireNonNull(method, "method");
            notificationHandlers.put(method, Objects.requireNonNull(handler, "handler"));
            return this;
        }

        /** Answers requests whose method has no handler of its own (the gateway forwards them). */
        public Builder onOtherRequest(RequestHandler handler) {
            this.fallbackRequestHandler = Optional.of(Objects.requireNonNull(handler, "handler"));
            return this;
        }

        /** Receives notifications that have no handler of their own (the gateway forwards them). */
        public Builder onOtherNotification(NotificationHandler handler) {
            this.fallbackNotificationHandler = Optional.of(handler);
            return this;
        }

        /** Adjusts every successful result before it is sent (fields a protocol version requires on all results). */
        public Builder resultFilter(ResultFilter filter) {
            this.resultFilter = Objects.requireNonNull(filter, "resultFilter");
            return this;
        }

        public Builder boundary(ErrorBoundary boundary) {
            this.boundary = Objects.requireNonNull(boundary, "boundary");
            return this;
        }

        public Builder defaultTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("defaultTimeout must be positive, got " + timeout);
            }
            this.defaultTimeout = timeout;
            return this;
        }

        /** How long requests already received may run after the peer's input ends (default 30 s). */
        public Builder drainTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "drainTimeout");
            if (timeout.isNegative()) {
                throw new IllegalArgumentException("drainTimeout must not be negative, got " + timeout);
            }
            this.drainTimeout = timeout;
            return this;
        }

        /**
         * How many notifications from the peer may wait for their handler (default {@value
         * Session#DEFAULT_MAX_QUEUED_NOTIFICATIONS}); more are dropped and counted ({@link #notificationsDropped}).
         */
        public Builder maxQueuedNotifications(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("maxQueuedNotifications must be positive, got " + max);
            }
            this.maxQueuedNotifications = max;
            return this;
        }

        /**
         * How many requests from the peer may be in progress at once (default {@value
         * Session#DEFAULT_MAX_CONCURRENT_REQUESTS}); more are refused with -32603 and {@code RATE_LIMITED}.
         */
        public Builder maxConcurrentRequests(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("maxConcurrentRequests must be positive, got " + max);
            }
            this.maxConcurrentRequests = max;
            return this;
        }

        /** What watches this session's traffic (telemetry); nothing by default. */
        public Builder observer(SessionObserver observer) {
            this.observer = Objects.requireNonNull(observer, "observer");
            return this;
        }

        /** The timeouts' clock and timer (tests move a manual one). */
        Builder deadlines(Deadlines deadlines) {
            this.deadlines = Objects.requireNonNull(deadlines, "deadlines");
            return this;
        }

        public Session build() {
            return new Session(this);
        }
    }
}
