package dev.warden.gateway;

import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import java.util.function.Supplier;

/** A test client's way in: each connect is a fresh in-memory connection served by the gateway. */
final class ViaGateway {

    private ViaGateway() {
    }

    static Supplier<Transport> to(Gateway gateway) {
        return () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            gateway.connect(pair.right());
            return pair.left();
        };
    }
}
