package dev.warden.client.http;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.FrameHints;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.transport.StdioTransport;
import dev.warden.core.transport.Transport;
import dev.warden.core.transport.TransportClosedException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What the server sends, to the session: JSON bodies and event streams read within the size limit
 * and handed to the listener one frame at a time, from whichever thread read them. Only answers'
 * ids are read here, to know which requests a stream still owes.
 */
final class Inbound {

    private static final System.Logger LOG = System.getLogger(Inbound.class.getName());

    private final Object input = new Object();
    /** Whether the transport is closed: nothing is read or handed on after, and its streams stop. */
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Transport.Listener listener;
    /** The largest answer (a JSON body, or one event's data) this client accepts. */
    private volatile int maxMessageBytes = StdioTransport.DEFAULT_MAX_MESSAGE_BYTES;

    void start(Transport.Listener listener) {
        this.listener = listener;
    }

    void maxMessageBytes(int max) {
        this.maxMessageBytes = max;
    }

    boolean closed() {
        return closed.get();
    }

    /** Closes the transport's input: true the first time only, so the transport closes once. */
    boolean close() {
        return closed.compareAndSet(false, true);
    }

    Optional<Transport.Listener> listener() {
        return Optional.ofNullable(listener);
    }

    /**
     * Where an event stream stands: the id to resume after, the server's retry delay, and when the
     * stream was seen to end (a {@link RetryTimer#nanoTime} reading), from which that delay counts.
     */
    static final class StreamState {
        private final RetryTimer timer;
        Optional<String> lastEventId = Optional.empty();
        long retryMillis = 1000;
        long endedAtNanos;

        StreamState() {
            this(RetryTimer.SYSTEM);
        }

        StreamState(RetryTimer timer) {
            this.timer = timer;
        }

        /** The stream ended (its end read, or it broke): the retry delay counts from now. */
        void ended() {
            endedAtNanos = timer.nanoTime();
        }
    }

    /** A JSON answer: one line of JSON as far as size goes, bounded the same way. */
    void readJson(InputStream response) {
        try (InputStream body = response) {
            BoundedLines lines = new BoundedLines(body, maxMessageBytes);
            StringBuilder text = new StringBuilder();
            BoundedLines.Line line;
            while ((line = lines.next()) != null) {
                if (line.oversized() || text.length() + line.text().length() > maxMessageBytes) {
                    tooLarge(line);
                    return;
                }
                text.append(line.text()).append('\n');
            }
            if (!text.toString().isBlank()) {
                deliver(text.toString().getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new TransportClosedException("the answer could not be read", e);
        }
    }

    /** Reads an event stream to its end; each answer read is taken out of {@code open}. */
    void readEvents(InputStream in, Set<RequestId> open, StreamState state) {
        try (in) {
            SseEvents events = new SseEvents(in, maxMessageBytes, state);
            Optional<SseEvents.Item> next;
            while (!closed.get() && (next = events.next()).isPresent()) {
                switch (next.get()) {
                    case SseEvents.Item.Oversized o -> tooLarge(o.edges());
                    case SseEvents.Item.Event e -> {
                        if (!e.data().isEmpty()) {
                            byte[] frame = e.data().getBytes(StandardCharsets.UTF_8);
                            answered(frame).ifPresent(open::remove);
                            deliver(frame);
                        }
                    }
                }
            }
        } catch (IOException e) {
            state.ended();
            LOG.log(System.Logger.Level.DEBUG, "an event stream broke");
        }
    }

    void deliver(byte[] frame) {
        Transport.Listener l = listener;
        if (l != null && !closed.get()) {
            synchronized (input) {
                l.onFrame(frame);
            }
        }
    }

    /** An answer over the limit: the request it answers fails at once (its id read from the edges). */
    void tooLarge(BoundedLines.Line line) {
        Transport.Listener l = listener;
        if (l != null && !closed.get()) {
            byte[] head = line.head() == null ? new byte[0] : line.head();
            byte[] tail = line.tail() == null ? new byte[0] : line.tail();
            synchronized (input) {
                // A refusal, not an answer: the session records it and renders it with a ref.
                l.onOversizedFrame(FrameHints.of(head, tail), ProtocolException.invalidRequest(
                        "Invalid request: the message exceeds the maximum size of " + maxMessageBytes + " bytes"));
            }
        }
    }

    /** The request an incoming frame answers, if it is an answer. */
    private static Optional<RequestId> answered(byte[] frame) {
        if (JsonRpcCodec.decode(frame) instanceof Decoded.Message m) {
            return switch (m.message()) {
                case JsonRpcMessage.Success s -> Optional.of(s.id());
                case JsonRpcMessage.Failure f -> f.id();
                default -> Optional.empty();
            };
        }
        return Optional.empty();
    }
}
