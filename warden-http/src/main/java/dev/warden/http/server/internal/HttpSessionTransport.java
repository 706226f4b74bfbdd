package dev.warden.http.server.internal;

import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Cancellation;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.transport.Route;
import dev.warden.core.transport.Transport;
import dev.warden.core.transport.TransportClosedException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The transport of one Streamable HTTP session: frames from POST bodies go to the session one at
 * a time; what the session sends goes to the stream of the request it concerns ({@link Route}),
 * or to the GET stream when it concerns none.
 */
public final class HttpSessionTransport implements Transport, dev.warden.core.transport.PeerAddress {

    private static final System.Logger LOG = System.getLogger(HttpSessionTransport.class.getName());

    private final String sessionId;
    private final Duration resumeWindow;
    private final ScheduledExecutorService timers;
    private final Object input = new Object();
    private volatile Listener listener;
    private final Map<RequestId, SseStream> byRequest = new ConcurrentHashMap<>();
    private final Map<String, SseStream> streams = new ConcurrentHashMap<>();
    private final Map<SseStream, Integer> openRequests = new ConcurrentHashMap<>();
    private volatile SseStream standalone;
    /**
     * What concerned no request and came before the client opened its GET stream (a list change
     * right after initializing, say; clients open that stream in the background): handed to the
     * stream when it opens rather than lost. Bounded, for clients that never open one.
     */
    private final java.util.ArrayDeque<String> early = new java.util.ArrayDeque<>();
    static final int MAX_EARLY = 64;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicLong nextStream = new AtomicLong(1);
    private volatile long lastActive = System.nanoTime();
    private volatile Optional<ProtocolVersion> version = Optional.empty();

    /** The address of the client that opened the session (limits are kept by it, not by the session). */
    private final String peerAddress;

    HttpSessionTransport(String sessionId, Duration resumeWindow, ScheduledExecutorService timers,
            String peerAddress) {
        this.sessionId = sessionId;
        this.peerAddress = peerAddress;
        this.resumeWindow = resumeWindow;
        this.timers = timers;
    }

    String sessionId() {
        return sessionId;
    }

    @Override
    public String peerAddress() {
        return peerAddress;
    }

    @Override
    public void start(Listener listener) {
        this.listener = listener;
    }

    /** The version the session negotiated (from the initialize exchange), once known. */
    Optional<ProtocolVersion> version() {
        return version;
    }

    void version(ProtocolVersion negotiated) {
        this.version = Optional.of(negotiated);
    }

    long idleNanos() {
        return System.nanoTime() - lastActive;
    }

    boolean isClosed() {
        return closed.get();
    }

    /** A new response stream for the requests of one POST body. */
    SseStream openStream(List<RequestId> requests) {
        String id = sessionId.substring(0, 8) + "-" + nextStream.getAndIncrement();
        SseStream[] holder = new SseStream[1];
        SseStream stream = new SseStream(id, () -> disconnected(holder[0]));
        holder[0] = stream;
        streams.put(id, stream);
        openRequests.put(stream, requests.size());
        for (RequestId request : requests) {
            byRequest.put(request, stream);
        }
        return stream;
    }

    /** A new stream for a GET without Last-Event-ID; empty if one is already open. */
    synchronized Optional<SseStream> openStandalone() {
        if (standalone != null && standalone.connected()) {
            return Optional.empty();
        }
        SseStream stream = new SseStream(sessionId.substring(0, 8) + "-g" + nextStream.getAndIncrement(), () -> { });
        if (standalone != null) {
            streams.remove(standalone.id()); // its client left; the new GET replaces it
        }
        standalone = stream;
        streams.put(stream.id(), stream); // resumable with Last-Event-ID like the POST streams
        for (String frame = early.poll(); frame != null; frame = early.poll()) {
            stream.send(frame); // kept, so sent when the GET attaches
        }
        return Optional.of(stream);
    }

    /** The stream a Last-Event-ID names, if it is one of this session's. */
    Optional<SseStream> stream(String streamId) {
        return Optional.ofNullable(streams.get(streamId));
    }

    /** Hands one frame to the session; frames reach it one at a time, in arrival order. */
    void deliver(byte[] frame) {
        lastActive = System.nanoTime();
        Listener l = listener;
        if (l == null || closed.get()) {
            return;
        }
        synchronized (input) {
            l.onFrame(frame);
        }
    }

    @Override
    public void send(String frame) {
        send(frame, Route.UNRELATED);
    }

    @Override
    public void send(String frame, Route route) {
        if (closed.get()) {
            throw new TransportClosedException("the HTTP session is closed", null);
        }
        SseStream target = switch (route) {
            case Route.Reply reply -> byRequest.get(reply.request());
            case Route.During during -> {
                SseStream own = byRequest.get(during.request());
                yield own != null ? own : standalone;
            }
            case Route.Unrelated unrelated -> standalone;
        };
        if (target == null && !(route instanceof Route.Reply)) {
            holdForGet(frame);
            return;
        }
        if (target == null) {
            // No stream to carry it: an answer whose stream is gone. Lost, as the spec allows.
            LOG.log(System.Logger.Level.DEBUG, "message dropped: no stream for it in this session");
            return;
        }
        target.send(frame);
    }

    /** Keeps a frame for the GET stream the client has not opened yet (or sends it there, if it just did). */
    private synchronized void holdForGet(String frame) {
        SseStream opened = standalone;
        if (opened != null) {
            opened.send(frame);
            return;
        }
        early.addLast(frame);
        if (early.size() > MAX_EARLY) {
            early.removeFirst();
            LOG.log(System.Logger.Level.DEBUG, "message dropped: the client has opened no GET stream for it");
        }
    }

    @Override
    public void requestEnded(RequestId request) {
        SseStream stream = byRequest.remove(request);
        if (stream != null && openRequests.merge(stream, -1, Integer::sum) <= 0) {
            openRequests.remove(stream);
            if (stream.end()) {
                // Its last event went out on a live connection: nothing is left to resume.
                streams.remove(stream.id());
                return;
            }
            // Kept a while for a client that reconnects to fetch the last events it missed.
            timers.schedule(() -> streams.remove(stream.id()), resumeWindow.toMillis(), TimeUnit.MILLISECONDS);
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
        if (stream == null || closed.get()) {
            return;
        }
        timers.schedule(() -> {
            if (!stream.ended() && !stream.connected()) {
                byRequest.forEach((request, s) -> {
                    if (s == stream) {
                        cancel(request);
                    }
                });
            }
        }, resumeWindow.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Cancels an incoming request the way a client would: a notifications/cancelled to the session. */
    void cancel(RequestId request) {
        deliver(Cancellation.frame(request, "The response stream closed").getBytes(StandardCharsets.UTF_8));
    }

    void keepAlive() {
        streams.values().forEach(SseStream::keepAlive);
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        streams.values().forEach(SseStream::end); // the GET stream is among them
        Listener l = listener;
        if (l != null) {
            l.onClose();
        }
    }
}
