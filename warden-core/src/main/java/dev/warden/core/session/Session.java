package dev.warden.core.session;

import dev.warden.core.error.AuthorizationFailedException;
import dev.warden.core.error.CapturedFailure;
import dev.warden.core.error.ConnectionClosedException;
import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ErrorRenderer;
import dev.warden.core.error.FailureContext;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.error.RequestTimeoutException;
import dev.warden.core.error.VisibleFailure;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Cancellation;
import dev.warden.core.mcp.Ping;
import dev.warden.core.mcp.Progress;
import dev.warden.core.transport.Route;
import dev.warden.core.transport.SessionExpiredException;
import dev.warden.core.transport.UnauthorizedException;
import dev.warden.core.transport.Transport;
import dev.warden.core.transport.TransportClosedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalDouble;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;

/**
 * One JSON-RPC conversation over a {@link Transport}, symmetric for client, server and gateway.
 *
 * <p>Incoming requests run on virtual threads, so a slow handler never holds up another request,
 * and each gets exactly one answer unless the peer cancels it. Outgoing requests are correlated by
 * id and end in the peer's answer or in a {@link dev.warden.core.error.LocalFailure}: timeout
 * (idle, reset on progress, bounded by a maximum total), local cancellation, or the transport
 * closing. Responses nobody is waiting for are dropped and logged.
 */
public final class Session implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Session.class.getName());
    /** Far more than a peer's handled notifications ever queue; each waits with its parsed params. */
    public static final int DEFAULT_MAX_QUEUED_NOTIFICATIONS = 10_000;
    /** Far more than any client or server runs at once on one connection. */
    public static final int DEFAULT_MAX_CONCURRENT_REQUESTS = 1_000;
    private final Transport transport;
    private final Map<String, RequestHandler> requestHandlers;
    private final Map<String, AsyncRequestHandler> asyncHandlers;
    private final java.util.Set<String> inlineMethods;
    private final Map<String, NotificationHandler> notificationHandlers;
    private final Optional<NotificationHandler> fallbackNotificationHandler;
    /** Null when there is none: unknown methods are then -32601. */
    private final RequestHandler fallbackRequestHandler;
    private final ErrorBoundary boundary;
    private final ResultFilter resultFilter;
    private final Duration defaultTimeout;
    private final Duration drainTimeout;
    private final ExecutorService notificationExecutor =
            Executors.newSingleThreadExecutor(Thread.ofVirtual().name("warden-notify").factory());
    /** Notifications handed to {@link #notificationExecutor} and not yet handled: at most {@link #maxQueuedNotifications}. */
    private final java.util.concurrent.atomic.AtomicInteger notificationsQueued =
            new java.util.concurrent.atomic.AtomicInteger();
    private final int maxQueuedNotifications;
    /** Notifications dropped because the queue was full: a peer flooding faster than they are handled. */
    private final AtomicLong notificationsDropped = new AtomicLong();
    private final int maxConcurrentRequests;
    /** Requests from the peer refused because {@link #maxConcurrentRequests} were running. */
    private final AtomicLong requestsRefused = new AtomicLong();
    private final Deadlines deadlines;
    private final Map<RequestId, InFlight> inFlight = new ConcurrentHashMap<>();
    private final Map<RequestId, Pending> pending = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong(1);
    /** Messages received whose answer (if any) has not been written yet; drained on end of input. */
    private final java.util.concurrent.atomic.AtomicInteger unanswered = new java.util.concurrent.atomic.AtomicInteger();
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CompletableFuture<Void> closedFuture = new CompletableFuture<>();
    private volatile boolean batchesAllowed;
    private volatile RequestGate gate = RequestGate.OPEN;

    private Session(Builder builder) {
        this.transport = builder.transport;
        this.requestHandlers = Map.copyOf(builder.requestHandlers);
        this.asyncHandlers = Map.copyOf(builder.asyncHandlers);
        this.inlineMethods = java.util.Set.copyOf(builder.inlineMethods);
        this.notificationHandlers = Map.copyOf(builder.notificationHandlers);
        this.fallbackNotificationHandler = builder.fallbackNotificationHandler;
        this.fallbackRequestHandler = builder.fallbackRequestHandler;
        this.boundary = builder.boundary;
        this.resultFilter = builder.resultFilter;
        this.defaultTimeout = builder.defaultTimeout;
        this.drainTimeout = builder.drainTimeout;
        this.maxQueuedNotifications = builder.maxQueuedNotifications;
        this.maxConcurrentRequests = builder.maxConcurrentRequests;
        this.deadlines = builder.deadlines;
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
        transport.start(new Transport.Listener() {
            @Override
            public void onFrame(byte[] frame) {
                try {
                    Decoded decoded = JsonRpcCodec.decode(frame);
                    if (decoded instanceof Decoded.Invalid && failAnswered(frame)) {
                        return;
                    }
                    receive(decoded);
                } catch (Throwable t) {
                    // Whatever failed on the reader (an OutOfMemoryError, a listener's bug), the session
                    // must not live on deaf: it closes, and everything waiting on it gets its answer.
                    LOG.log(System.Logger.Level.ERROR, "the session failed reading a message; closing it", t);
                    close();
                }
            }

            @Override
            public void onFrameError(ProtocolException refusal) {
                sendQuietly(failure(Optional.empty(), FRAME, refusal, "the transport could not deliver a frame"));
            }

            /**
             * An oversized response fails the request it answers at once; an oversized request is
             * answered with its own id when that could be read, else with a null id.
             */
            @Override
            public void onOversizedFrame(dev.warden.core.jsonrpc.FrameHints hints, ProtocolException refusal) {
                Optional<RequestId> id = hints.id();
                if (id.isPresent() && !hints.hasMethod()) {
                    Pending p = pending.remove(id.get());
                    if (p != null) {
                        p.disarm();
                        p.future.completeExceptionally(new dev.warden.core.error.MessageTooLargeException(
                                "The peer's answer exceeds the maximum message size"));
                    }
                    return;
                }
                sendQuietly(failure(id.filter(i -> hints.hasMethod()), FRAME, refusal, "oversized frame"));
            }

            @Override
            public void onInputEnded() {
                drainThenClose();
            }

            @Override
            public void onSendFailed(RequestId request, TransportClosedException cause) {
                failPending(request, cause);
            }

            @Override
            public void onClose() {
                shutdown();
            }
        });
    }

    /**
     * A frame that is no valid message (not UTF-8, not JSON) but reads as the answer to a request of
     * ours (an {@code id} and no {@code method} at its edges): that request fails now, as the peer's
     * parse error, rather than waiting out its timeout. Nothing is sent back for an answer.
     */
    private boolean failAnswered(byte[] frame) {
        dev.warden.core.jsonrpc.FrameHints hints = dev.warden.core.jsonrpc.FrameHints.of(
                java.util.Arrays.copyOf(frame, Math.min(frame.length, dev.warden.core.jsonrpc.FrameHints.EDGE)),
                java.util.Arrays.copyOfRange(frame, Math.max(0, frame.length - dev.warden.core.jsonrpc.FrameHints.EDGE),
                        frame.length));
        if (hints.hasMethod() || hints.id().isEmpty()) {
            return false;
        }
        Pending p = pending.remove(hints.id().get());
        if (p == null) {
            return false;
        }
        p.disarm();
        LOG.log(System.Logger.Level.WARNING, "the peer answered a request with a frame that is not valid UTF-8 JSON");
        p.future.completeExceptionally(new PeerErrorException(new JsonRpcError(JsonRpcError.PARSE_ERROR,
                "Parse error: the answer is not valid UTF-8 JSON", Optional.empty())));
        return true;
    }

    /** Notifications dropped so far because {@link Builder#maxQueuedNotifications} were waiting. */
    public long notificationsDropped() {
        return notificationsDropped.get();
    }

    /** Notifications waiting for their handler now. */
    public int notificationsQueued() {
        return notificationsQueued.get();
    }

    /** Requests from the peer refused so far because {@link Builder#maxConcurrentRequests} were running. */
    public long requestsRefused() {
        return requestsRefused.get();
    }

    /** Whether the negotiated protocol version allows JSON-RPC batches (only 2025-03-26 does). */
    public void allowBatches(boolean allowed) {
        this.batchesAllowed = allowed;
    }

    public void gate(RequestGate gate) {
        this.gate = Objects.requireNonNull(gate, "gate");
    }

    /** Completes when the transport has closed and every pending request has been failed. */
    public CompletableFuture<Void> closed() {
        return closedFuture;
    }

    /** Requests from the peer still being handled. */
    int inFlightCount() {
        return inFlight.size();
    }

    /** Messages from the peer whose answer is not on the wire yet. */
    int unansweredCount() {
        return unanswered.get();
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
        if (notificationsQueued.get() == 0) {
            // Nothing received is waiting or running: no trip through the notification thread.
            return CompletableFuture.completedFuture(null);
        }
        try {
            return CompletableFuture.runAsync(() -> { }, notificationExecutor);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            return CompletableFuture.completedFuture(null);
        }
    }

    public boolean isClosed() {
        return closed.get();
    }

    // ---- outgoing ----------------------------------------------------------------------------

    public OutgoingRequest request(String method, JsonNode params) {
        return request(method, params, RequestOptions.ofDefaults().withTimeout(defaultTimeout));
    }

    public OutgoingRequest request(String method, JsonNode params, RequestOptions options) {
        return request(method, params, options, currentRoute());
    }

    /**
     * A request about an incoming request, sent from any thread (a proxy relaying its upstream's
     * question, say): it travels on that request's stream, which the peer is sure to be reading,
     * rather than on a stream it may not have opened yet.
     */
    public OutgoingRequest request(String method, JsonNode params, RequestId about) {
        return request(method, params, RequestOptions.ofDefaults().withTimeout(defaultTimeout),
                Route.during(Objects.requireNonNull(about, "about")));
    }

    private OutgoingRequest request(String method, JsonNode params, RequestOptions options, Route route) {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(options, "options");
        RequestId id = RequestId.of(nextId.getAndIncrement());
        OutgoingRequest future = new OutgoingRequest(id, this);
        if (closed.get()) {
            future.completeExceptionally(new ConnectionClosedException("The connection is closed"));
            return future;
        }
        Optional<JsonNode> body = Optional.ofNullable(params);
        if (options.wantsProgress()) {
            body = Optional.of(Progress.withToken(body, id));
        }
        Pending p = new Pending(future, options, deadlines.now());
        pending.put(id, p);
        p.arm(options.timeout());
        try {
            // Armed first: a peer that reads nothing holds this at most until the request times out.
            JsonRpcMessage.Request request = new JsonRpcMessage.Request(id, method, body, Map.of());
            transport.send(JsonRpcCodec.encode(request), request, route, future);
        } catch (TransportClosedException e) {
            pending.remove(id);
            p.disarm();
            future.completeExceptionally(new ConnectionClosedException(e instanceof SessionExpiredException
                    ? "The server ended the session" : "The connection is closed", e,
                    e instanceof SessionExpiredException));
        }
        if (closed.get() && pending.remove(id) != null) {
            future.completeExceptionally(new ConnectionClosedException("The connection is closed"));
        }
        return future;
    }

    public OutgoingRequest ping(Duration timeout) {
        return request(Ping.METHOD, Json.object(), RequestOptions.ofDefaults().withTimeout(timeout));
    }

    public void notify(String method, JsonNode params) {
        send(method, params, currentRoute());
    }

    /**
     * A notification about an incoming request, sent from any thread: it travels on that request's
     * stream (a long-lived {@code subscriptions/listen}, say).
     */
    public void notify(String method, JsonNode params, RequestId about) {
        send(method, params, Route.during(Objects.requireNonNull(about, "about")));
    }

    /** A notification on the stream of the request it concerns (progress goes with its request). */
    void send(String method, JsonNode params, Route route) {
        JsonRpcMessage.Notification notification = new JsonRpcMessage.Notification(method,
                Optional.ofNullable(params), Map.of());
        transport.send(JsonRpcCodec.encode(notification), notification, route);
    }

    /** Like {@link #send} but a closed transport is not an error (progress racing a disconnect, say). */
    void notifyQuietly(String method, JsonNode params, Route route) {
        try {
            send(method, params, route);
        } catch (TransportClosedException e) {
            LOG.log(System.Logger.Level.DEBUG, "notification dropped: transport closed");
        }
    }

    /** Asks the transport to drop the connection carrying this request's stream (see {@link Transport#closeStream}). */
    boolean closeStream(RequestId request) {
        return transport.closeStream(request);
    }

    /** A request of ours never reached the peer (the transport sent it asynchronously and failed). */
    private void failPending(RequestId id, TransportClosedException cause) {
        Pending p = pending.remove(id);
        if (p != null) {
            p.disarm();
            p.future.completeExceptionally(switch (cause) {
                case SessionExpiredException e -> new ConnectionClosedException("The server ended the session", e, true);
                case UnauthorizedException e -> new AuthorizationFailedException(e.getMessage(), e.getCause());
                default -> new ConnectionClosedException("The connection is closed", cause, false);
            });
        }
    }

    /** Called by {@link OutgoingRequest#cancel}: stop waiting and tell the peer. */
    void abandon(RequestId id, String reason) {
        Pending p = pending.remove(id);
        if (p == null) {
            return;
        }
        p.disarm();
        notifyQuietly(Cancellation.NOTIFICATION, Cancellation.params(id, reason), currentRoute());
    }

    private final class Pending implements Deadlines.Expiring {
        final OutgoingRequest future;
        final RequestOptions options;
        final long startNanos;

        Pending(OutgoingRequest future, RequestOptions options, long startNanos) {
            this.future = future;
            this.options = options;
            this.startNanos = startNanos;
        }

        void arm(Duration idle) {
            long left = options.effectiveMaxTotal().toNanos() - (deadlines.now() - startNanos);
            deadlines.arm(this, Math.min(idle.toNanos(), Math.max(0, left)));
        }

        void disarm() {
            deadlines.disarm(this);
        }

        @Override
        public void expire() {
            boolean total = deadlines.now() - startNanos >= options.effectiveMaxTotal().toNanos();
            String what = total ? "maximum total timeout" : "timeout";
            if (future.completeExceptionally(new RequestTimeoutException("No response within the " + what))) {
                abandon(future.id(), "Request timed out");
            }
        }

        void onProgress(Progress.Params progress) {
            if (options.resetTimeoutOnProgress()) {
                arm(options.timeout());
            }
            options.onProgress().ifPresent(listener -> {
                try {
                    listener.accept(progress);
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "progress listener failed", e);
                }
            });
        }
    }

    // ---- incoming ----------------------------------------------------------------------------

    private void receive(Decoded decoded) {
        switch (decoded) {
            case Decoded.Message m -> {
                unanswered.incrementAndGet();
                dispatch(m.message()).whenComplete((reply, error) -> {
                    if (reply != null) {
                        reply.ifPresent(this::sendQuietly);
                    }
                    if (m.message() instanceof JsonRpcMessage.Request request) {
                        transport.requestEnded(request.id());
                    }
                    unanswered.decrementAndGet();
                });
            }
            case Decoded.Invalid invalid -> {
                LOG.log(System.Logger.Level.DEBUG, "invalid frame: {0}", invalid.reason());
                reply(invalid).ifPresent(this::sendQuietly);
            }
            case Decoded.Batch batch -> receiveBatch(batch);
        }
    }

    private void receiveBatch(Decoded.Batch batch) {
        if (!batchesAllowed) {
            sendQuietly(failure(Optional.empty(), "(batch)", ProtocolException.invalidRequest(
                    "Invalid request: batches are not supported in the negotiated protocol version")));
            return;
        }
        List<CompletableFuture<Optional<JsonRpcMessage>>> replies = new ArrayList<>();
        for (Decoded item : batch.items()) {
            switch (item) {
                case Decoded.Message m -> replies.add(dispatch(m.message()));
                case Decoded.Invalid invalid -> replies.add(CompletableFuture.completedFuture(
                        reply(invalid).map(JsonRpcMessage.class::cast)));
                // The codec decodes batch items one by one, so this does not occur; answered all the same.
                case Decoded.Batch nested -> replies.add(CompletableFuture.completedFuture(Optional.of(failure(
                        Optional.empty(), "(batch)", ProtocolException.invalidRequest("Invalid request: a batch inside a batch")))));
            }
        }
        unanswered.incrementAndGet();
        CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new)).whenComplete((ignored, error) -> {
            try {
                sendBatchReply(replies);
                for (Decoded item : batch.items()) {
                    if (item instanceof Decoded.Message m && m.message() instanceof JsonRpcMessage.Request r) {
                        transport.requestEnded(r.id());
                    }
                }
            } finally {
                unanswered.decrementAndGet();
            }
        });
    }

    private void sendBatchReply(List<CompletableFuture<Optional<JsonRpcMessage>>> replies) {
        List<JsonRpcMessage> out = replies.stream().map(CompletableFuture::join)
                .flatMap(Optional::stream).toList();
        if (!out.isEmpty()) {
            try {
                Optional<RequestId> first = out.stream().flatMap(m -> replyId(m).stream()).findFirst();
                transport.send(JsonRpcCodec.encodeBatch(out), first.map(Route::reply).orElse(Route.UNRELATED));
            } catch (TransportClosedException e) {
                LOG.log(System.Logger.Level.DEBUG, "batch reply dropped: transport closed");
            }
        }
    }

    /** Handles one message; the future holds the reply to send, if any. */
    private CompletableFuture<Optional<JsonRpcMessage>> dispatch(JsonRpcMessage message) {
        return switch (message) {
            case JsonRpcMessage.Request request -> handleRequest(request);
            case JsonRpcMessage.Notification notification -> {
                handleNotification(notification);
                yield CompletableFuture.completedFuture(Optional.empty());
            }
            case JsonRpcMessage.Response response -> {
                handleResponse(response);
                yield CompletableFuture.completedFuture(Optional.empty());
            }
        };
    }

    private CompletableFuture<Optional<JsonRpcMessage>> handleRequest(JsonRpcMessage.Request request) {
        if (closed.get()) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        RequestHandler handler = Ping.METHOD.equals(request.method())
                ? requestHandlers.getOrDefault(Ping.METHOD, ctx -> Json.object())
                : requestHandlers.getOrDefault(request.method(), fallbackRequestHandler);
        AsyncRequestHandler async = asyncHandlers.get(request.method());
        if (handler == null && async == null) {
            // The method name is the caller's input: it is not repeated back.
            return reply(failure(Optional.of(request.id()), request.method(),
                    ProtocolException.methodNotFound()));
        }
        Optional<ProtocolException> refused = gate.check(request);
        if (refused.isPresent()) {
            return reply(failure(Optional.of(request.id()), request.method(), refused.get()));
        }
        if (inFlight.size() >= maxConcurrentRequests && !Ping.METHOD.equals(request.method())) {
            // A peer asking faster than it is answered (server-to-client requests in a loop) holds a
            // thread per request: beyond the bound it is refused at once, with a ref.
            if (requestsRefused.getAndIncrement() % 1_000 == 0) {
                LOG.log(System.Logger.Level.WARNING, "requests refused: {0} from the peer are in progress "
                        + "(maxConcurrentRequests)", maxConcurrentRequests);
            }
            return reply(failure(Optional.of(request.id()), request.method(), new ProtocolException(
                    JsonRpcError.INTERNAL_ERROR, "Too many requests in progress on this connection; retry later",
                    ErrorCode.RATE_LIMITED)));
        }
        InFlight context = new InFlight(this, request);
        if (inFlight.putIfAbsent(request.id(), context) != null) {
            return reply(failure(Optional.of(request.id()), request.method(), ProtocolException.invalidRequest(
                    "Invalid request: a request with this id is already in progress")));
        }
        if (async != null) {
            CompletableFuture<Optional<JsonRpcMessage>> answered = handleAsync(async, context, request);
            if (answered != null) {
                return answered;
            }
            if (handler == null) {
                inFlight.remove(request.id(), context);
                return reply(failure(Optional.of(request.id()), request.method(),
                        ProtocolException.methodNotFound()));
            }
        }
        if (inlineMethods.contains(request.method())) {
            context.bind(Thread.currentThread());
            Optional<JsonRpcMessage> reply;
            Handling outer = HANDLING.get();
            HANDLING.set(new Handling(this, request.id()));
            try {
                reply = run(handler, context, request);
            } finally {
                HANDLING.set(outer);
            }
            inFlight.remove(request.id(), context);
            Thread.interrupted(); // a cancel aimed at the handler must not leak into the reader thread
            return CompletableFuture.completedFuture(reply);
        }
        CompletableFuture<Optional<JsonRpcMessage>> result = new CompletableFuture<>();
        Thread thread = Thread.ofVirtual().name("warden-handler").unstarted(() -> {
            HANDLING.set(new Handling(this, request.id()));
            Optional<JsonRpcMessage> reply = run(handler, context, request);
            // Leave the table before answering: the peer may reuse the id as soon as it has the answer.
            inFlight.remove(request.id(), context);
            result.complete(reply);
        });
        context.bind(thread);
        thread.start();
        return result;
    }

    private Optional<JsonRpcMessage> run(RequestHandler handler, InFlight context, JsonRpcMessage.Request request) {
        JsonNode value;
        try {
            value = handler.handle(context);
        } catch (Throwable t) {
            return answer(context, request, null, t);
        }
        return answer(context, request, value, null);
    }

    /**
     * Runs an async handler on this thread (the transport's, which read the request); the answer
     * goes out when its stage completes. Null when the handler left the request to the ordinary one.
     */
    private CompletableFuture<Optional<JsonRpcMessage>> handleAsync(AsyncRequestHandler handler, InFlight context,
            JsonRpcMessage.Request request) {
        CompletableFuture<Optional<JsonRpcMessage>> result = new CompletableFuture<>();
        java.util.concurrent.CompletionStage<JsonNode> stage;
        Handling outer = HANDLING.get();
        HANDLING.set(new Handling(this, request.id()));
        try {
            stage = handler.handle(context);
        } catch (Throwable t) {
            stage = CompletableFuture.failedFuture(t);
        } finally {
            HANDLING.set(outer);
        }
        if (stage == null) {
            return null; // the ordinary handler takes it, on a thread of its own
        }
        stage.whenComplete((value, thrown) -> {
            Throwable cause = thrown instanceof java.util.concurrent.CompletionException c && c.getCause() != null
                    ? c.getCause() : thrown;
            Optional<JsonRpcMessage> reply = answer(context, request, value, cause);
            inFlight.remove(request.id(), context);
            result.complete(reply);
        });
        return result;
    }

    /** The answer to a request whose handler returned {@code value} or threw {@code thrown}. */
    private Optional<JsonRpcMessage> answer(InFlight context, JsonRpcMessage.Request request, JsonNode value,
            Throwable thrown) {
        JsonRpcMessage reply;
        if (thrown == null) {
            try {
                reply = new JsonRpcMessage.Success(request.id(),
                        resultFilter.apply(request, value == null ? Json.object() : value));
            } catch (Throwable t) {
                thrown = t;
                reply = null;
            }
        } else {
            reply = null;
        }
        if (thrown instanceof ProtocolException e) {
            reply = failure(Optional.of(request.id()), request.method(), e);
        } else if (thrown != null) {
            if (context.cancelled()) {
                return Optional.empty();
            }
            CapturedFailure captured = boundary.capture(thrown, FailureContext.of(request.method()));
            reply = new JsonRpcMessage.Failure(request.id(), ErrorRenderer.rpcError(
                    ErrorRenderer.jsonRpcCodeFor(captured.failure().code()), VisibleFailure.of(captured)));
        }
        // Exactly one of "answer" and "cancelled" happens; a cancelled request gets no answer.
        return context.complete() ? Optional.of(reply) : Optional.empty();
    }

    private void handleNotification(JsonRpcMessage.Notification notification) {
        switch (notification.method()) {
            case Cancellation.NOTIFICATION -> notification.params().map(p -> p.get("requestId"))
                    .flatMap(RequestId::fromJson)
                    .map(inFlight::get)
                    .filter(ctx -> !"initialize".equals(ctx.method()))
                    .ifPresent(InFlight::cancel);
            case Progress.NOTIFICATION -> routeProgress(notification);
            default -> {
                NotificationHandler handler = notificationHandlers.get(notification.method());
                NotificationHandler chosen = handler != null ? handler : fallbackNotificationHandler.orElse(null);
                if (chosen == null) {
                    return;
                }
                if (notificationsQueued.incrementAndGet() > maxQueuedNotifications) {
                    // A peer sending faster than its notifications are handled (a log flood to a slow
                    // client): beyond the bound they are dropped, not queued until memory runs out.
                    notificationsQueued.decrementAndGet();
                    if (notificationsDropped.getAndIncrement() % 10_000 == 0) {
                        LOG.log(System.Logger.Level.WARNING, "notifications dropped: {0} are waiting for their "
                                + "handler (maxQueuedNotifications); {1} dropped so far",
                                maxQueuedNotifications, notificationsDropped.get());
                    }
                    return;
                }
                try {
                    notificationExecutor.execute(() -> {
                        try {
                            chosen.handle(notification.method(), notification.params());
                        } catch (Exception e) {
                            LOG.log(System.Logger.Level.WARNING, "notification handler failed", e);
                        } finally {
                            notificationsQueued.decrementAndGet();
                        }
                    });
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    notificationsQueued.decrementAndGet();
                    LOG.log(System.Logger.Level.DEBUG, "notification dropped: session closed");
                }
            }
        }
    }

    private void routeProgress(JsonRpcMessage.Notification notification) {
        Optional<JsonNode> params = notification.params();
        Optional<RequestId> token = params.flatMap(p -> RequestId.fromJson(p.get("progressToken")));
        if (token.isEmpty()) {
            return;
        }
        Pending p = pending.get(token.get());
        if (p == null) {
            return;
        }
        JsonNode body = params.get();
        JsonNode progress = body.get("progress");
        if (progress == null || !progress.isNumber()) {
            return;
        }
        JsonNode total = body.get("total");
        JsonNode message = body.get("message");
        p.onProgress(new Progress.Params(token.get().toJson(), progress.doubleValue(),
                total != null && total.isNumber() ? OptionalDouble.of(total.doubleValue()) : OptionalDouble.empty(),
                message != null && message.isString() ? Optional.of(message.stringValue()) : Optional.empty()));
    }

    private void handleResponse(JsonRpcMessage.Response response) {
        Optional<RequestId> id = switch (response) {
            case JsonRpcMessage.Success s -> Optional.of(s.id());
            case JsonRpcMessage.Failure f -> f.id();
        };
        Pending p = id.map(pending::remove).orElse(null);
        if (p == null) {
            LOG.log(System.Logger.Level.WARNING, "dropped a response with an unknown id");
            return;
        }
        p.disarm();
        switch (response) {
            case JsonRpcMessage.Success s -> p.future.complete(s.result());
            case JsonRpcMessage.Failure f -> p.future.completeExceptionally(new PeerErrorException(f.error()));
        }
    }

    /** The request a handler thread is answering, so what it sends goes on that request's stream. */
    private record Handling(Session session, RequestId request) {
    }

    private static final ThreadLocal<Handling> HANDLING = new ThreadLocal<>();

    private Route currentRoute() {
        Handling handling = HANDLING.get();
        return handling != null && handling.session() == this ? Route.during(handling.request()) : Route.UNRELATED;
    }

    /** An answer goes on its request's stream, with its error code if it is an error. */
    private static Route routeOf(JsonRpcMessage message) {
        return switch (message) {
            case JsonRpcMessage.Success s -> Route.reply(s.id());
            case JsonRpcMessage.Failure f -> f.id().<Route>map(id -> new Route.Reply(id,
                    OptionalInt.of(f.error().code()))).orElse(Route.UNRELATED);
            default -> Route.UNRELATED;
        };
    }

    private static Optional<RequestId> replyId(JsonRpcMessage message) {
        return switch (message) {
            case JsonRpcMessage.Success s -> Optional.of(s.id());
            case JsonRpcMessage.Failure f -> f.id();
            default -> Optional.empty();
        };
    }

    /** A protocol error for the peer, rendered by the one renderer, its ref recorded by the boundary. */
    private JsonRpcMessage.Failure failure(Optional<RequestId> id, String method, ProtocolException e) {
        return failure(id, method, e, "");
    }

    private JsonRpcMessage.Failure failure(Optional<RequestId> id, String method, ProtocolException e, String reason) {
        return new JsonRpcMessage.Failure(id, ErrorRenderer.rpcError(e,
                boundary.refusal(e, FailureContext.of(method), reason)));
    }

    /**
     * The method an incident names for a frame that never became a request (malformed JSON, an
     * invalid request, an oversized frame): there is no method to name.
     */
    static final String FRAME = "(frame)";

    /** The answer to an invalid frame, when one may be sent: the codec's refusal, recorded and rendered. */
    private Optional<JsonRpcMessage.Failure> reply(Decoded.Invalid invalid) {
        return invalid.refusal().map(r -> failure(r.id(), FRAME, ProtocolException.refusing(r), invalid.reason()));
    }

    private static CompletableFuture<Optional<JsonRpcMessage>> reply(JsonRpcMessage message) {
        return CompletableFuture.completedFuture(Optional.of(message));
    }

    private void sendQuietly(JsonRpcMessage message) {
        try {
            transport.send(JsonRpcCodec.encode(message), message, routeOf(message));
        } catch (TransportClosedException e) {
            LOG.log(System.Logger.Level.DEBUG, "reply dropped: transport closed");
        }
    }

    // ---- closing -----------------------------------------------------------------------------

    /**
     * The peer sent its last message. Requests it already sent still get their answers (each
     * request gets exactly one), up to the drain timeout; our own pending requests can no longer be
     * answered and fail now.
     */
    private void drainThenClose() {
        failPending();
        Thread.ofVirtual().name("warden-drain").start(() -> {
            long deadline = System.nanoTime() + drainTimeout.toNanos();
            try {
                while (unanswered.get() > 0 && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            close();
        });
    }

    private void failPending() {
        for (RequestId id : new ArrayList<>(pending.keySet())) {
            Pending p = pending.remove(id);
            if (p != null) {
                p.disarm();
                p.future.completeExceptionally(new ConnectionClosedException(
                        "The connection closed before the peer answered"));
            }
        }
    }

    @Override
    public void close() {
        transport.close();
        shutdown();
    }

    private void shutdown() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        failPending();
        for (InFlight context : new ArrayList<>(inFlight.values())) {
            context.cancel();
        }
        notificationExecutor.shutdown();
        closedFuture.complete(null);
    }

    public static final class Builder {
        private final Transport transport;
        private final Map<String, RequestHandler> requestHandlers = new HashMap<>();
        private final Map<String, AsyncRequestHandler> asyncHandlers = new HashMap<>();
        private final java.util.Set<String> inlineMethods = new java.util.HashSet<>();
        private final Map<String, NotificationHandler> notificationHandlers = new HashMap<>();
        private Optional<NotificationHandler> fallbackNotificationHandler = Optional.empty();
        private RequestHandler fallbackRequestHandler;
        private ErrorBoundary boundary = ErrorBoundary.ofDefaults();
        private ResultFilter resultFilter = (request, result) -> result;
        private Duration defaultTimeout = RequestOptions.DEFAULT_TIMEOUT;
        private Duration drainTimeout = Duration.ofSeconds(30);
        private int maxQueuedNotifications = DEFAULT_MAX_QUEUED_NOTIFICATIONS;
        private int maxConcurrentRequests = DEFAULT_MAX_CONCURRENT_REQUESTS;
        private Deadlines deadlines = Deadlines.SHARED;

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
            this.fallbackRequestHandler = Objects.requireNonNull(handler, "handler");
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
