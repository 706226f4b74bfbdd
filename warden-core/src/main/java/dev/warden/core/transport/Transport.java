package dev.warden.core.transport;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import java.util.Optional;

/**
 * Moves whole JSON-RPC frames. A transport does framing and size limits only; it never interprets
 * a frame. It calls its listener from one reader thread, in arrival order.
 */
public interface Transport extends AutoCloseable {

    /** Starts reading; frames and the final close are reported to {@code listener}. Call once. */
    void start(Listener listener);

    /**
     * Sends one frame (a JSON text without newlines). Thread-safe; frames are never interleaved.
     *
     * @throws TransportClosedException when the transport is closed or the write fails
     */
    void send(String frame);

    /**
     * Sends one frame with where it belongs. Transports with one stream per request (Streamable
     * HTTP) route by it; the default ignores it.
     */
    default void send(String frame, Route route) {
        send(frame);
    }

    /**
     * Sends a request frame that is worth sending only until {@code answered} completes (its answer,
     * its timeout, its cancellation): a transport that queues frames waits for room no longer than
     * that, and drops the frame unwritten if it completes first, so a peer that stops reading holds
     * no caller past the request's own deadline. The default sends as {@link #send(String, Route)}.
     */
    default void send(String frame, Route route, java.util.concurrent.CompletableFuture<?> answered) {
        send(frame, route);
    }

    /**
     * Sends one message the session built, as {@code frame} (its encoding). A transport that labels
     * or routes by what a message is (Streamable HTTP: a request's headers and id, the notification
     * that opens its listen stream) reads the message here, never the frame. The default sends the
     * frame as {@link #send(String, Route)}.
     */
    default void send(String frame, JsonRpcMessage message, Route route) {
        send(frame, route);
    }

    /**
     * Sends a request the session built, as {@code frame}, worth sending only until
     * {@code answered} completes (see {@link #send(String, Route, java.util.concurrent.CompletableFuture)}).
     * The default sends the frame as that method does.
     */
    default void send(String frame, JsonRpcMessage.Request request, Route route,
                      java.util.concurrent.CompletableFuture<?> answered) {
        send(frame, route, answered);
    }

    /**
     * What this transport learns from its client to label each request with metadata headers
     * (Streamable HTTP); empty for a transport that labels nothing (the default).
     */
    default Optional<RequestMetadata> requestMetadata() {
        return Optional.empty();
    }

    /**
     * The headers of the HTTP request that carried {@code request}, as far as this transport keeps
     * them (Streamable HTTP keeps W3C trace context, {@code traceparent} and {@code tracestate}, for
     * a request in flight): a server continues its caller's trace from them when the request's
     * {@code _meta} carries none. Empty where there are none (stdio), the default.
     */
    default Optional<RequestHeaders> requestHeaders(RequestId request) {
        return Optional.empty();
    }

    /**
     * The session is done with an incoming request: answered, or cancelled and so never answered.
     * Transports that hold a stream open per request close it here; the default does nothing.
     */
    default void requestEnded(RequestId request) {
    }

    /**
     * Asks the transport to end the connection carrying {@code request}'s stream without ending the
     * stream itself, so the client reconnects and resumes it (Streamable HTTP polling, SEP-1699).
     * Returns false where that means nothing (stdio).
     */
    default boolean closeStream(RequestId request) {
        return false;
    }

    /** Stops reading and writing; the listener's {@link Listener#onClose()} is called once. */
    @Override
    void close();

    interface Listener {
        /** One complete frame, as raw bytes; the codec checks that they are UTF-8 JSON. */
        void onFrame(byte[] frame);

        /**
         * A frame that could not be delivered (too large, say). The refusal is a value of the error
         * model, not an answer: the listener (a session) records it under a ref and renders it with
         * the one renderer, with a null id, since the frame's id cannot be read. A transport has no
         * incident store of its own; the refs it causes resolve in its session's.
         */
        void onFrameError(ProtocolException refusal);

        /**
         * A frame over the size limit, dropped unread but for what its edges tell ({@code hints}):
         * its id, so it can still be answered (a request) or its request failed (a response).
         * The default treats it as {@link #onFrameError}.
         */
        default void onOversizedFrame(dev.warden.core.jsonrpc.FrameHints hints, ProtocolException refusal) {
            onFrameError(refusal);
        }

        /**
         * The peer will send nothing more (EOF on stdin), but this side may still write: requests
         * already received can be answered before closing. The default closes at once.
         */
        default void onInputEnded() {
            onClose();
        }

        /**
         * A request frame that {@link #send} accepted could not be delivered after all (a transport
         * that sends asynchronously, like Streamable HTTP). The request fails locally.
         */
        default void onSendFailed(RequestId request, TransportClosedException cause) {
        }

        /** The peer went away or {@link #close()} was called. Called exactly once. */
        void onClose();
    }
}
