package dev.warden.core.transport;

import dev.warden.core.error.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Two transports connected back to back in one process: what one sends, the other receives, in
 * order. For tests and for embedding a server in the same JVM as its client. Closing either end
 * closes both, as a pipe reaching EOF would.
 */
public final class InMemoryTransport implements Transport {

    private static final Object CLOSE = new Object();

    private final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    private final AtomicBoolean closed;
    private final AtomicBoolean started = new AtomicBoolean();
    private InMemoryTransport peer;

    private InMemoryTransport(AtomicBoolean closed) {
        this.closed = closed;
    }

    /** A connected pair. */
    public record Pair(InMemoryTransport left, InMemoryTransport right) {
    }

    public static Pair pair() {
        AtomicBoolean closed = new AtomicBoolean();
        InMemoryTransport a = new InMemoryTransport(closed);
        InMemoryTransport b = new InMemoryTransport(closed);
        a.peer = b;
        b.peer = a;
        return new Pair(a, b);
    }

    @Override
    public void start(Listener listener) {
        Objects.requireNonNull(listener, "listener");
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("transport already started");
        }
        Thread.ofVirtual().name("warden-memory-reader").start(() -> {
            try {
                while (true) {
                    Object item = inbox.take();
                    if (item == CLOSE) {
                        listener.onClose();
                        return;
                    }
                    if (item instanceof ProtocolException error) {
                        listener.onFrameError(error);
                    } else {
                        listener.onFrame((byte[]) item);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                listener.onClose();
            }
        });
    }

    @Override
    public void send(String frame) {
        if (closed.get()) {
            throw new TransportClosedException("transport is closed", null);
        }
        peer.inbox.add(frame.getBytes(StandardCharsets.UTF_8));
    }

    /** Delivers a raw frame error to the peer, as a transport would for an oversized message. */
    public void sendFrameError(ProtocolException error) {
        peer.inbox.add(error);
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            inbox.add(CLOSE);
            peer.inbox.add(CLOSE);
        }
    }
}
