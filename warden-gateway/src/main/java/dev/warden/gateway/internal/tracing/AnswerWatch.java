package dev.warden.gateway.internal.tracing;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.FrameHints;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.transport.RequestHeaders;
import dev.warden.core.transport.RequestMetadata;
import dev.warden.core.transport.Route;
import dev.warden.core.transport.Transport;
import dev.warden.core.transport.TransportClosedException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The client's transport as its session sends on it, each answer read on its way out so its
 * request's span ends with exactly what the client receives ({@link ServerSpans}), just before it
 * is written. Everything is
 * passed on unchanged; the client connection itself keeps the transport as it is (what it is,
 * an HTTP exchange or an authenticated peer, is read from that one).
 */
final class AnswerWatch implements Transport {

    private final Transport inner;
    private final ServerSpans spans;

    AnswerWatch(Transport inner, ServerSpans spans) {
        this.inner = inner;
        this.spans = spans;
    }

    @Override
    public void start(Listener listener) {
        inner.start(new Listener() {
            @Override
            public void onFrame(byte[] frame) {
                listener.onFrame(frame);
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
                listener.onInputEnded();
            }

            @Override
            public void onSendFailed(RequestId request, TransportClosedException cause) {
                listener.onSendFailed(request, cause);
            }

            @Override
            public void onClose() {
                try {
                    listener.onClose();
                } finally {
                    spans.closed();
                }
            }
        });
    }

    @Override
    public void send(String frame) {
        inner.send(frame);
    }

    /** The session's one send without the message: a batch's answers, read back only while spans wait. */
    @Override
    public void send(String frame, Route route) {
        if (spans.awaiting() && frame.startsWith("[")
                && JsonRpcCodec.decode(frame) instanceof Decoded.Batch batch) {
            for (Decoded item : batch.items()) {
                if (item instanceof Decoded.Message(JsonRpcMessage.Response answer)) {
                    spans.answered(answer);
                }
            }
        }
        inner.send(frame, route);
    }

    @Override
    public void send(String frame, Route route, CompletableFuture<?> answered) {
        inner.send(frame, route, answered);
    }

    /** An answer ends its span before it goes: once the client has it, the span is complete. */
    @Override
    public void send(String frame, JsonRpcMessage message, Route route) {
        if (message instanceof JsonRpcMessage.Response answer) {
            spans.answered(answer);
        }
        inner.send(frame, message, route);
    }

    @Override
    public void send(String frame, JsonRpcMessage.Request request, Route route, CompletableFuture<?> answered) {
        inner.send(frame, request, route, answered);
    }

    @Override
    public Optional<RequestMetadata> requestMetadata() {
        return inner.requestMetadata();
    }

    @Override
    public Optional<RequestHeaders> requestHeaders(RequestId request) {
        return inner.requestHeaders(request);
    }

    @Override
    public void requestEnded(RequestId request) {
        inner.requestEnded(request);
        spans.ended(request);
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
