package dev.warden.http.server.internal.stateless;

import dev.warden.core.identity.Caller;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Cancellation;
import dev.warden.core.transport.AuthenticatedPeer;
import dev.warden.core.transport.RequestHeaders;
import dev.warden.core.transport.Route;
import dev.warden.core.transport.TransportClosedException;
import dev.warden.http.server.internal.request.Headers;
import dev.warden.http.server.internal.session.HttpCounters;
import dev.warden.http.server.internal.stream.HttpTransport;
import dev.warden.http.server.internal.stream.QueuedWriter;
import dev.warden.http.server.internal.stream.SseStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * One stateless request (2026-07-28): its own short-lived transport, so a server connection
 * serves exactly this request and is closed after the answer. The answer is a single JSON object
 * when nothing precedes it (with the status the version defines: 404 for an unknown method, 400
 * for its request errors), or an event stream when notifications come first. There is no
 * resumption in this version: a closed stream cancels the request. Events are written by a
 * {@link QueuedWriter}, so the sender never waits on a client that does not read: log and progress
 * notifications it has no room for are dropped ({@link DroppableMessages}); past its bounds, or
 * when the client does not read at all, the stream is cut and the request cancelled.
 */
final class StatelessExchange implements HttpTransport, RequestHeaders, dev.warden.core.transport.PeerAddress,
        AuthenticatedPeer {

    private final RequestId request;
    private final HttpFields headers;
    private final String peerAddress;
    private final int peerPort;
    private final Optional<Caller> caller;
    private final Response response;
    private final Callback callback;
    private final SseStream.Buffer bounds;
    private final HttpCounters counters;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean finished = new AtomicBoolean();
    private final ReentrantLock lock = new ReentrantLock();
    private volatile Listener listener;
    private QueuedWriter stream;

    /**
     * @param http the HTTP request carrying {@code request}: its headers and its peer's address
     * @param counters the server's metrics: streams cut because their client fell behind, messages dropped
     */
    StatelessExchange(RequestId request, Request http, Response response, Callback callback,
                      SseStream.Buffer bounds, HttpCounters counters, Optional<Caller> caller) {
        this.request = request;
        this.caller = caller;
        this.headers = http.getHeaders();
        this.peerAddress = Request.getRemoteAddr(http);
        this.peerPort = Request.getRemotePort(http);
        this.response = response;
        this.callback = callback;
        this.bounds = bounds;
        this.counters = counters;
    }

    @Override
    public String peerAddress() {
        return peerAddress;
    }

    @Override
    public Optional<Integer> peerPort() {
        return peerPort > 0 && peerPort <= 65_535 ? Optional.of(peerPort) : Optional.empty();
    }

    /** Who sent the request, when the server authenticates. */
    @Override
    public Optional<Caller> caller() {
        return caller;
    }

    @Override
    public Optional<String> header(String name) {
        return Optional.ofNullable(headers.get(name)); // HttpFields compares names case-insensitively
    }

    /** The one request this exchange carries came with these headers (its trace context among them). */
    @Override
    public Optional<RequestHeaders> requestHeaders(RequestId id) {
        return id.equals(request) ? Optional.of(this) : Optional.empty();
    }

    @Override
    public void start(Listener listener) {
        this.listener = listener;
    }

    void deliver(byte[] frame) {
        Listener l = listener;
        if (l != null && !closed.get()) {
            l.onFrame(frame);
        }
    }

    @Override
    public void send(String frame, Route route, boolean droppable) {
        boolean overflowed = false;
        lock.lock();
        try {
            if (finished.get()) {
                throw new TransportClosedException("the exchange is over", null);
            }
            Optional<Route.Reply> reply = route instanceof Route.Reply r && r.request().equals(request)
                    ? Optional.of(r) : Optional.empty();
            if (stream == null && reply.isPresent()) {
                byte[] body = frame.getBytes(StandardCharsets.UTF_8);
                response.setStatus(statusOf(reply.get().errorCode()));
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
                finished.set(true);
                response.write(true, ByteBuffer.wrap(body), callback); // asynchronous: returns at once
                return;
            }
            if (stream == null) {
                Headers.sse(response);
                stream = new QueuedWriter(response, callback, bounds, this::cancel);
                stream.start("warden-stateless-stream");
            }
            QueuedWriter.Offer offered = stream.offer(
                    ("event: message\ndata: " + frame + "\n\n").getBytes(StandardCharsets.UTF_8), droppable);
            if (offered == QueuedWriter.Offer.REFUSED) {
                // The client does not read its stream: cut, and the request cancelled, as when it closes it.
                finished.set(true);
                stream.fail(new IOException("the client fell behind: its stream was cut"));
                overflowed = true;
            } else if (offered == QueuedWriter.Offer.DROPPED) {
                counters.notificationsDropped.increment();
            } else if (reply.isPresent()) {
                finish();
            }
        } finally {
            lock.unlock();
        }
        if (overflowed) {
            counters.streamsCut.increment();
            // Not on this thread: it may be shared with other clients, and a cancellation can travel far.
            Thread.ofVirtual().name("warden-http-cancel").start(this::cancel);
            throw new TransportClosedException("the client fell behind on its response stream", null);
        }
    }

    void keepAlive() {
        lock.lock();
        try {
            if (stream != null && !finished.get() && stream.idle()) {
                stream.offer(": keep-alive\n\n".getBytes(StandardCharsets.UTF_8));
            }
        } finally {
            lock.unlock();
        }
    }

    /** The status for a single-object answer: the version's HTTP mapping of its errors. */
    static int statusOf(OptionalInt errorCode) {
        if (errorCode.isEmpty()) {
            return 200;
        }
        int code = errorCode.getAsInt();
        if (code == JsonRpcError.METHOD_NOT_FOUND) {
            return 404;
        }
        if (code == JsonRpcError.HEADER_MISMATCH || code == JsonRpcError.UNSUPPORTED_PROTOCOL_VERSION
                || code == JsonRpcError.MISSING_REQUIRED_CLIENT_CAPABILITY) {
            return 400;
        }
        return 200;
    }

    @Override
    public void requestEnded(RequestId id) {
        if (id.equals(request)) {
            lock.lock();
            try {
                if (!finished.get()) {
                    if (stream == null) {
                        // Cancelled before any answer: end the exchange without one.
                        finished.set(true);
                        response.setStatus(204);
                        response.write(true, null, callback);
                    } else {
                        finish();
                    }
                }
            } finally {
                lock.unlock();
            }
            close();
        }
    }

    /** The client went away: the request is cancelled, as a client on stdio would with notifications/cancelled. */
    void cancel() {
        if (closed.get()) {
            return;
        }
        deliver(Cancellation.frame(request, "The response stream closed").getBytes(StandardCharsets.UTF_8));
    }

    private void finish() {
        if (finished.compareAndSet(false, true)) {
            stream.close(); // the writer ends the response once the queue is written
        }
    }

    boolean isClosed() {
        return closed.get();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            Listener l = listener;
            if (l != null) {
                l.onClose();
            }
        }
    }
}
