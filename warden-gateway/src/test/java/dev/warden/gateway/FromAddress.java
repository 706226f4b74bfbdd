package dev.warden.gateway;

import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.PeerAddress;
import dev.warden.core.transport.Route;
import dev.warden.core.transport.Transport;
import java.util.function.Supplier;

/** The gateway's side of an in-memory connection, seen as coming from a network address (as over HTTP). */
record FromAddress(Transport inner, String peerAddress) implements Transport, PeerAddress {

    /** A test client's way in from {@code address}: each connect a fresh in-memory connection. */
    static Supplier<Transport> via(Gateway gateway, String address) {
        return () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            gateway.connect(new FromAddress(pair.right(), address));
            return pair.left();
        };
    }

    @Override
    public void start(Listener listener) {
        inner.start(listener);
    }

    @Override
    public void send(String frame) {
        inner.send(frame);
    }

    @Override
    public void send(String frame, Route route) {
        inner.send(frame, route);
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
