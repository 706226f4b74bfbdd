package dev.warden.audit.internal;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.jsonrpc.FrameHints;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.transport.RequestMetadata;
import dev.warden.core.transport.Route;
import dev.warden.core.transport.Transport;
import dev.warden.core.transport.TransportClosedException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A transport that hands every frame the server sends to the {@link Wire} before the client's
 * session sees it, and lets the auditor write frames of its own (malformed ones included) on the
 * same connection. Everything else is the wrapped transport's.
 */
public final class TapTransport implements Transport {

    private final Transport inner;
    private final Wire wire;
    private final java.util.concurrent.atomic.AtomicInteger requests = new java.util.concurrent.atomic.AtomicInteger();

    public TapTransport(Transport inner, Wire wire) {
        this.inner = inner;
        this.wire = wire;
    }

    /** How many requests went out through this transport (the client's and raw ones): what the budget counts. */
    public int requestsSent() {
        return requests.get();
    }

    /** Writes a frame as it is, bypassing the session: the auditor's malformed requests. */
    public void sendRaw(String frame) {
        inner.send(frame);
    }

    @Override
    public void start(Listener listener) {
        inner.start(new Listener() {
            @Override
            public void onFrame(byte[] frame) {
                if (wire.received(frame)) {
                    listener.onFrame(frame);
                }
            }

            @Override
            public void onFrameError(ProtocolException refusal) {
                listener.onFrameError(refusal);
            }

            @Override
            public void onOversizedFrame(FrameHints hints, ProtocolException refusal) {
                listener.onOversizedFrame(hints, refusal);
            }

            @Override
            public void onInputEnded() {
                wire.closed();
                listener.onInputEnded();
            }

            @Override
            public void onSendFailed(RequestId request, TransportClosedException cause) {
                listener.onSendFailed(request, cause);
            }

            @Override
            public void onClose() {
                wire.closed();
                listener.onClose();
            }
        });
    }

    @Override
    public void send(String frame) {
        count(frame);
        inner.send(frame);
    }

    @Override
    public void send(String frame, Route route) {
        count(frame);
        inner.send(frame, route);
    }

    @Override
    public void send(String frame, Route route, CompletableFuture<?> answered) {
        count(frame);
        inner.send(frame, route, answered);
    }

    @Override
    public void send(String frame, JsonRpcMessage message, Route route) {
        if (message instanceof JsonRpcMessage.Request) {
            requests.incrementAndGet();
        }
        inner.send(frame, message, route);
    }

    @Override
    public void send(String frame, JsonRpcMessage.Request request, Route route, CompletableFuture<?> answered) {
        requests.incrementAndGet();
        inner.send(frame, request, route, answered);
    }

    /** A frame the session built without saying what it is: a request if it has a method and an id. */
    private void count(String frame) {
        if (frame.contains("\"method\"") && frame.contains("\"id\"")) {
            requests.incrementAndGet();
        }
    }

    @Override
    public Optional<RequestMetadata> requestMetadata() {
        return inner.requestMetadata();
    }

    @Override
    public void requestEnded(RequestId request) {
        inner.requestEnded(request);
    }

    @Override
    public boolean closeStream(RequestId request) {
        return inner.closeStream(request);
    }

    @Override
    public void close() {
        inner.close();
    }
}
