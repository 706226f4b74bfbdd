package dev.warden.http.server.internal;

import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Cancellation;
import dev.warden.core.transport.RequestHeaders;
import dev.warden.core.transport.Route;
import dev.warden.core.transport.Transport;
import dev.warden.core.transport.TransportClosedException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * One stateless request (2026-07-28): its own short-lived transport, so a server connection
 * serves exactly this request and is closed after the answer. The answer is a single JSON object
 * when nothing precedes it (with the status the version defines: 404 for an unknown method, 400
 * for its request errors), or an event stream when notifications come first. There is no
 * resumption in this version: a closed stream cancels the request.
 */
final class StatelessExchange implements Transport, RequestHeaders, dev.warden.core.transport.PeerAddress {

    private final RequestId request;
    private final HttpFields headers;
    private final Response response;
    private final Callback callback;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean finished = new AtomicBoolean();
    private volatile Listener listener;
    private OutputStream stream;

    private final String peerAddress;

    StatelessExchange(RequestId request, HttpFields headers, Response response, Callback callback,
            String peerAddress) {
        this.peerAddress = peerAddress;
        this.request = request;
        this.headers = headers;
        this.response = response;
        this.callback = callback;
    }

    @Override
    public String peerAddress() {
        return peerAddress;
    }

    @Override
    public Optional<String> header(String name) {
        return Optional.ofNullable(headers.get(name)); // HttpFields compares names case-insensitively
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
    public void send(String frame) {
        send(frame, Route.UNRELATED);
    }

    @Override
    public synchronized void send(String frame, Route route) {
        if (finished.get()) {
            throw new TransportClosedException("the exchange is over", null);
        }
        Optional<Route.Reply> reply = route instanceof Route.Reply r && r.request().equals(request)
                ? Optional.of(r) : Optional.empty();
        try {
            if (stream == null && reply.isPresent()) {
                byte[] body = frame.getBytes(StandardCharsets.UTF_8);
                response.setStatus(statusOf(reply.get().errorCode()));
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
                finished.set(true);
                response.write(true, ByteBuffer.wrap(body), callback);
                return;
            }
            if (stream == null) {
                McpHandler.sseHeaders(response);
                stream = Content.Sink.asOutputStream(response);
            }
            stream.write(("event: message\ndata: " + frame + "\n\n").getBytes(StandardCharsets.UTF_8));
            stream.flush();
            if (reply.isPresent()) {
                finish();
            }
        } catch (IOException e) {
            // The client closed the stream: in this version that is the cancellation signal.
            cancel();
            throw new TransportClosedException("the client closed the response stream", e);
        }
    }

    synchronized void keepAlive() {
        if (stream != null && !finished.get()) {
            try {
                stream.write(": keep-alive\n\n".getBytes(StandardCharsets.UTF_8));
                stream.flush();
            } catch (IOException e) {
                cancel();
            }
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
            synchronized (this) {
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
            try {
                stream.close();
                callback.succeeded();
            } catch (IOException e) {
                callback.failed(e);
            }
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
