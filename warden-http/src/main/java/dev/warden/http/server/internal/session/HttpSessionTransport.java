package dev.warden.http.server.internal.session;

import dev.warden.core.identity.Caller;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Cancellation;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.transport.AuthenticatedPeer;
import dev.warden.core.transport.IdentifiedSession;
import dev.warden.core.transport.Route;
import dev.warden.core.transport.TransportClosedException;
import dev.warden.http.server.internal.request.TraceHeaders;
import dev.warden.http.server.internal.settings.ResumeWindow;
import dev.warden.http.server.internal.settings.SessionLimits;
import dev.warden.http.server.internal.stream.GetRoute;
import dev.warden.http.server.internal.stream.GetStream;
import dev.warden.http.server.internal.stream.HttpTransport;
import dev.warden.http.server.internal.stream.SseStream;
import dev.warden.http.server.internal.stream.StreamIds;
import dev.warden.http.server.internal.stream.StreamOpening;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The transport of one Streamable HTTP session: frames from POST bodies go to the session one at
 * a time; what the session sends goes to the stream of the request it concerns ({@link Route}),
 * or to the GET stream when it concerns none. Log and progress notifications about a request in
 * flight may be dropped when their stream's client falls behind ({@link DroppableMessages}).
 */
public final class HttpSessionTransport implements HttpTransport, dev.warden.core.transport.PeerAddress,
        AuthenticatedPeer, IdentifiedSession {

    private static final System.Logger LOG = System.getLogger(HttpSessionTransport.class.getName());

    private final String sessionId;
    private final String remoteAddress;
    private final ResumeWindow resumeWindow;
    private final SessionLimits limits;
    private final InstantSource clock;
    private final SseStream.SessionBudget budget;
    private final HttpCounters counters;
    /** Frames reach the session one at a time; a lock rather than a monitor, so no carrier is pinned on JDK 21. */
    private final java.util.concurrent.locks.ReentrantLock input = new java.util.concurrent.locks.ReentrantLock();
    private volatile Listener listener;
    private final Map<RequestId, SseStream> byRequest = new ConcurrentHashMap<>();
    /**
     * Requests answered whose end ({@link #requestEnded}) has not come yet, with their streams: out of
     * {@link #byRequest} before the answer is written, so the client may reuse the id once it has it.
     */
    private final Map<RequestId, SseStream> answered = new ConcurrentHashMap<>();
    /** The W3C trace context of the POST that carried each request in flight, when it sent one. */
    private final Map<RequestId, TraceHeaders> traced = new ConcurrentHashMap<>();
    private final Map<String, SseStream> streams = new ConcurrentHashMap<>();
    private final Map<SseStream, Integer> openRequests = new ConcurrentHashMap<>();
    private final GetStream get = new GetStream();
    private final AnsweredChanges changes = new AnsweredChanges();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicLong nextStream = new AtomicLong(1);
    private volatile long lastActive;
    /** Admitted and not yet carrying its initialize: not idle, so a concurrent initialize cannot evict it. */
    private volatile boolean starting = true;
    private volatile Optional<ProtocolVersion> version = Optional.empty();
    /** Whose share of the per-address cap this session counts in: its address, or its principal. */
    private final String capKey;
    /** Who opened the session (empty when the server authenticates nobody), as of its latest request. */
    private volatile Optional<Caller> caller;
    /** Its stream ids' start: the id's, or for a portable session a tag of this replica's copy (no clash with another's). */
    private final String streamPrefix;

    /** @param counters the server's metrics: streams cut because their client fell behind, messages dropped */
    HttpSessionTransport(String sessionId, String remoteAddress, ResumeWindow resumeWindow, SessionLimits limits,
                         InstantSource clock, HttpCounters counters, Optional<Caller> caller, String capKey, String streamPrefix) {
        this.sessionId = sessionId;
        this.streamPrefix = streamPrefix;
        this.caller = caller;
        this.capKey = capKey;
        this.remoteAddress = remoteAddress;
        this.resumeWindow = resumeWindow;
        this.limits = limits;
        this.clock = clock;
        this.budget = new SseStream.SessionBudget(limits.retainedBytes());
        this.counters = counters;
        this.lastActive = clock.millis();
    }

    /** The {@code Mcp-Session-Id} it was given (spans name the session by its digest). */
    @Override
    public String sessionId() {
        return sessionId;
    }

    /** What the session's streams keep for resumption, in bytes. */
    long retainedBytes() {
        return budget.used();
    }

    @Override
    public String peerAddress() {
        return remoteAddress;
    }

    String capKey() {
        return capKey;
    }

    /** Who opened the session, with the credentials of its latest request. */
    @Override
    public Optional<Caller> caller() {
        return caller;
    }

    /** Whether a request from {@code requester} may use this session: the same principal that opened it, or nobody when nobody did. */
    boolean ownedBy(Optional<Caller> requester) {
        return caller.isEmpty() ? requester.isEmpty()
                : requester.isPresent() && caller.get().samePrincipal(requester.get());
    }

    /** A request of the owner came with these credentials (new scopes after a step-up, a refreshed token). */
    void actingFor(Caller requester) {
        caller = Optional.of(requester);
    }

    @Override
    public void start(Listener listener) {
        this.listener = listener;
    }

    /** The version the session negotiated (from the initialize exchange), once known. */
    public Optional<ProtocolVersion> version() {
        return version;
    }

    public void version(ProtocolVersion negotiated) {
        this.version = Optional.of(negotiated);
    }

    /** The replica its questions to the client name ({@link ReplicaIds}): set for a portable session among replicas. */
    private volatile Optional<String> replica = Optional.empty();
    private final Connecting connecting = new Connecting();

    Connecting connecting() {
        return connecting;
    }

    /** Restored from a sealed id and initialized again: it may now be idle like any other. */
    void restored() {
        starting = false;
    }

    /**
     * Idle: no request in flight and no stream connected. A client waiting on its GET stream for
     * list changes is not idle, however long it waits.
     */
    boolean idle() {
        if (starting || !byRequest.isEmpty()) {
            return false;
        }
        for (SseStream stream : streams.values()) {
            if (stream.connected()) {
                return false;
            }
        }
        return true;
    }

    /** When the session was last active (millis of the server's clock). */
    long lastActive() {
        return lastActive;
    }

    /** Whether the session has been idle for longer than {@code timeout} at {@code now}. */
    boolean expired(long nowMillis, Duration timeout) {
        return idle() && nowMillis - lastActive > timeout.toMillis();
    }

    private void touch() {
        lastActive = clock.millis();
    }

    boolean isClosed() {
        return closed.get();
    }

    /**
     * A new response stream for the requests of one POST body, or why not: an id that a request
     * still in flight in this session uses (its answer would go to one stream and the other POST
     * would never complete), too many requests in flight, or the session closed since the POST
     * found it (evicted or expired meanwhile: a stream opened now would never be answered).
     */
    public synchronized StreamOpening openStream(List<RequestId> requests) {
        if (closed.get()) {
            return new StreamOpening.Refused(StreamOpening.Refusal.CLOSED);
        }
        if (requests.stream().distinct().count() < requests.size()
                || requests.stream().anyMatch(byRequest::containsKey)) {
            return new StreamOpening.Refused(StreamOpening.Refusal.DUPLICATE_ID);
        }
        if (byRequest.size() + requests.size() > limits.maxPendingRequests()) {
            return new StreamOpening.Refused(StreamOpening.Refusal.TOO_MANY_PENDING);
        }
        touch();
        starting = false;
        String id = StreamIds.stream(streamPrefix, nextStream.getAndIncrement(), requests);
        SseStream[] holder = new SseStream[1];
        SseStream stream = new SseStream(id, limits.streamBuffer(), budget, () -> disconnected(holder[0]),
                () -> overflowed(holder[0]), counters.notificationsDropped::increment);
        holder[0] = stream;
        streams.put(id, stream);
        openRequests.put(stream, requests.size());
        for (RequestId request : requests) {
            byRequest.put(request, stream);
        }
        return new StreamOpening.Opened(stream);
    }

    /** A new stream for a GET without Last-Event-ID; empty if one is already open. */
    public Optional<SseStream> openStandalone() {
        return get.open(() -> {
            touch();
            SseStream[] holder = new SseStream[1];
            SseStream stream = new SseStream(StreamIds.standalone(streamPrefix, nextStream.getAndIncrement()),
                    limits.streamBuffer(), budget, this::touch, () -> overflowed(holder[0]),
                    counters.notificationsDropped::increment);
            holder[0] = stream;
            streams.put(stream.id(), stream); // resumable with Last-Event-ID like the POST streams
            return stream;
        }, this::drop);
    }

    /** The client opened its GET stream on another replica: one here it left is let go. */
    void getStreamElsewhere() {
        get.movedAway().ifPresent(this::drop);
    }

    private void drop(SseStream stream) {
        streams.remove(stream.id());
        stream.forget();
    }

    /** The stream a Last-Event-ID names, if it is one of this session's. */
    public Optional<SseStream> stream(String streamId) {
        return Optional.ofNullable(streams.get(streamId));
    }

    /**
     * The requests of one POST came with this trace context: kept until each is answered, so the
     * server's span of each continues the caller's trace ({@link #requestHeaders}).
     */
    public void traced(List<RequestId> requests, TraceHeaders headers) {
        requests.forEach(request -> traced.put(request, headers));
    }

    @Override
    public Optional<dev.warden.core.transport.RequestHeaders> requestHeaders(RequestId request) {
        return Optional.ofNullable(traced.get(request));
    }

    /** Hands one frame to the session; frames reach it one at a time, in arrival order. */
    public void deliver(byte[] frame) {
        touch();
        Listener l = listener;
        if (l == null || closed.get()) {
            return;
        }
        input.lock();
        try {
            l.onFrame(frame);
        } finally {
            input.unlock();
        }
    }

    /** A question to the client; among replicas its id names this one, where the answer must come back. */
    @Override
    public void send(String frame, JsonRpcMessage.Request request, Route route, CompletableFuture<?> answered) {
        send(replica.map(self -> ReplicaIds.naming(request, self)).orElse(frame), route, false);
    }

    @Override
    public void send(String frame, Route route, boolean droppable) {
        if (closed.get()) {
            throw new TransportClosedException("the HTTP session is closed", null);
        }
        if (route instanceof Route.Reply) {
            // Active until its answer leaves, not until the bookkeeping after it: a client that has
            // read the answer must find the session idle from then (requestEnded does not touch).
            touch();
        }
        SseStream target = switch (route) {
            case Route.Reply reply -> answering(reply.request());
            case Route.During during -> byRequest.get(during.request());
            case Route.Unrelated unrelated -> null;
        };
        if (target != null && route instanceof Route.Reply && openRequests.getOrDefault(target, 0) == 1) {
            target.sendLast(frame); // its only request left: the answer ends the stream in the same write
        } else if (target != null) {
            target.send(frame, droppable);
        } else if (!(route instanceof Route.Reply)) {
            get.send(frame, droppable); // here, held, or to the replica holding the client's GET stream
        } else {
            // No stream to carry it: an answer whose stream is gone. Lost, as the spec allows.
            LOG.log(System.Logger.Level.DEBUG, "message dropped: no stream for it in this session");
        }
        if (route instanceof Route.Reply) {
            changes.answered(frame); // the answer is out: a change it accepted now crosses replicas
        }
    }

    /**
     * The stream of a request about to be answered, its id released first: the client may send a
     * request with the same id as soon as it has this answer (the session's core releases it the
     * same way). Under the lock {@link #openStream} checks ids under. An id reused before its first
     * request ended stays where it is: each of the two ends then takes one of the two streams.
     */
    private synchronized SseStream answering(RequestId request) {
        if (answered.containsKey(request)) {
            return byRequest.get(request);
        }
        SseStream stream = byRequest.remove(request);
        if (stream != null) {
            answered.put(request, stream);
        }
        return stream;
    }

    /** {@code then} runs once request {@code id} is answered with success (see {@link AnsweredChanges}). */
    void whenAnswered(RequestId id, Runnable then) {
        changes.expect(id, then);
    }

    /** A frame for this copy's GET stream from another replica's copy: sent or held. */
    void pushToGet(String frame) {
        get.push(frame, false);
    }

    @Override
    public void requestEnded(RequestId request) {
        changes.ended(request);
        traced.remove(request);
        SseStream answeredOn = answered.remove(request);
        if (answeredOn == null) {
            touch(); // ended unanswered (cancelled, or its stream gone): its end is the last activity
        }
        SseStream stream = answeredOn != null ? answeredOn : byRequest.remove(request); // or ended unanswered here
        if (stream != null && openRequests.merge(stream, -1, Integer::sum) <= 0) {
            openRequests.remove(stream);
            if (stream.end() && StreamIds.forgetDelivered(streamPrefix, stream)) {
                streams.remove(stream.id()); // its last event went out on a live connection: nothing to resume
                return;
            }
            // Kept a while for a client that reconnects to fetch the last events it missed.
            resumeWindow.afterItPasses(() -> {
                streams.remove(stream.id());
                stream.forget();
            });
        }
    }

    @Override
    public boolean closeStream(RequestId request) {
        SseStream stream = byRequest.get(request);
        return stream != null && stream.closeConnection();
    }

    /**
     * A POST stream's connection broke. The stream waits for the client to resume it; if it does
     * not within the resume window, its requests are cancelled, as nobody will read their answers.
     */
    private void disconnected(SseStream stream) {
        touch();
        if (stream == null || closed.get()) {
            return;
        }
        resumeWindow.afterItPasses(() -> {
            if (!stream.ended() && !stream.connected()) {
                byRequest.forEach((request, s) -> {
                    if (s == stream) {
                        cancel(request);
                    }
                });
            }
        });
    }

    /**
     * A stream's client stopped reading and its buffer filled: the stream is gone, and the
     * requests it was to answer are cancelled (nobody will read their answers). Called on the
     * sender's thread, which may serve other clients: the cancellation is handed to the timer
     * thread rather than delivered here.
     */
    private void overflowed(SseStream stream) {
        counters.streamsCut.increment();
        LOG.log(System.Logger.Level.INFO, "a client fell behind on its event stream: the stream was cut");
        if (stream == null) {
            return;
        }
        streams.remove(stream.id());
        if (stream == get.current()) {
            return; // the GET stream carries no request; the client may open a new one
        }
        List<RequestId> owned = byRequest.entrySet().stream().filter(e -> e.getValue() == stream)
                .map(Map.Entry::getKey).toList();
        owned.forEach(this::cancel);
    }

    /**
     * Cancels an incoming request the way a client would: a notifications/cancelled to the session,
     * on a thread of its own: the caller may be the timer thread or a sender shared with other
     * clients, and the cancellation may travel on to an upstream.
     */
    void cancel(RequestId request) {
        byte[] frame = Cancellation.frame(request, "The response stream closed").getBytes(StandardCharsets.UTF_8);
        Thread.ofVirtual().name("warden-http-cancel").start(() -> deliver(frame));
    }

    void namesReplica(String self, GetRoute route) {
        replica = Optional.of(self);
        get.route(route);
    }

    /** Whether {@code request} came in a POST to this copy and is not answered yet. */
    boolean inFlight(RequestId request) {
        return byRequest.containsKey(request);
    }

    void keepAlive() {
        streams.values().forEach(SseStream::keepAlive);
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        traced.clear();
        streams.values().forEach(stream -> {
            stream.end(); // the GET stream is among them
            stream.forget();
        });
        Listener l = listener;
        if (l != null) {
            l.onClose();
        }
    }

    /** Priming events (an id and empty data) are a 2025-11-25 addition: older clients would choke on them. */
    public boolean primes() {
        return version().map(v -> v.compareTo(ProtocolVersion.V2025_11_25) >= 0).orElse(false);
    }
}
