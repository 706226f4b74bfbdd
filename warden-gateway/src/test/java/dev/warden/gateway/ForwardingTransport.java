package dev.warden.gateway;

import dev.warden.core.transport.Transport;
import java.nio.charset.StandardCharsets;

/**
 * An upstream's connection as a test changes it: every frame goes on to the real server behind
 * it unless a subclass's {@link #send} keeps it, and {@link #toGateway} hands the gateway a frame
 * as if the server had written it (on a thread of its own, as a peer would).
 */
abstract class ForwardingTransport implements Transport {

    private final Transport inner;
    private volatile Listener listener;

    ForwardingTransport(Transport inner) {
        this.inner = inner;
    }

    @Override
    public void start(Listener l) {
        listener = l;
        inner.start(l);
    }

    @Override
    public void send(String frame) {
        inner.send(frame);
    }

    @Override
    public void close() {
        inner.close();
    }

    /** {@code frame} to the gateway, as if the server behind had written it. */
    void toGateway(String frame) {
        byte[] bytes = frame.getBytes(StandardCharsets.UTF_8);
        Thread.ofVirtual().start(() -> listener.onFrame(bytes));
    }
}
