package dev.warden.gateway;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import java.nio.charset.StandardCharsets;
import java.util.Queue;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;

/**
 * A client that writes JSON-RPC frames as they are and keeps every frame the gateway sends back,
 * for tests that must see the wire itself (stateless {@code _meta}, acknowledgements, refusals)
 * rather than what an SDK client makes of it.
 */
final class RawFrames {

    private RawFrames() {
    }

    /** The client's end of a new in-memory connection; {@code connect} gets the gateway's end. */
    static Transport open(Consumer<Transport> connect, Queue<JsonNode> received) {
        InMemoryTransport.Pair pair = InMemoryTransport.pair();
        connect.accept(pair.right());
        pair.left().start(new Transport.Listener() {
            @Override
            public void onFrame(byte[] frame) {
                received.add(Json.mapper().readTree(new String(frame, StandardCharsets.UTF_8)));
            }

            @Override
            public void onFrameError(ProtocolException error) {
            }

            @Override
            public void onClose() {
            }
        });
        return pair.left();
    }
}
