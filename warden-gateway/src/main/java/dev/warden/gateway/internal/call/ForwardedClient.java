package dev.warden.gateway.internal.call;

import dev.warden.core.identity.Caller;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.transport.AuthenticatedPeer;
import dev.warden.core.transport.PeerAddress;
import dev.warden.core.transport.Route;
import dev.warden.core.transport.Transport;
import java.util.Optional;

/**
 * The owner's side of a round another replica forwarded ({@link ParkedOwner}): a connection from
 * the client as that replica established it (its address, its authenticated caller), so the
 * gateway serves the round exactly as one that reached it directly, same-client check included.
 */
record ForwardedClient(Transport inner, Optional<String> address, Optional<Caller> caller)
        implements Transport, PeerAddress, AuthenticatedPeer {

    @Override
    public String peerAddress() {
        return address.orElse(""); // none: as a transport that knows no address
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
    public void close() {
        inner.close();
    }
}
