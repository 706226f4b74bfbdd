package dev.warden.core.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/** The far end of an in-memory transport, speaking raw JSON so tests see exactly what crosses the wire. */
final class RawPeer {

    private final InMemoryTransport transport;
    private final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    final CountDownLatch closed = new CountDownLatch(1);

    RawPeer(InMemoryTransport transport) {
        this.transport = transport;
        transport.start(new Transport.Listener() {
            @Override
            public void onFrame(byte[] frame) {
                received.add(new String(frame, StandardCharsets.UTF_8));
            }

            @Override
            public void onFrameError(dev.warden.core.error.ProtocolException error) {
            }

            @Override
            public void onClose() {
                closed.countDown();
            }
        });
    }

    void send(String json) {
        transport.send(json);
    }

    void sendFrameError(dev.warden.core.error.ProtocolException error) {
        transport.sendFrameError(error);
    }

    void close() {
        transport.close();
    }

    /** The next frame; fails if none arrives (a hang guard, not a timing assertion). */
    JsonNode next() throws InterruptedException {
        String frame = received.poll(20, TimeUnit.SECONDS);
        assertThat(frame).as("a frame from the session").isNotNull();
        return Json.mapper().readTree(frame);
    }

    String nextRaw() throws InterruptedException {
        String frame = received.poll(20, TimeUnit.SECONDS);
        assertThat(frame).as("a frame from the session").isNotNull();
        return frame;
    }

    /** Frames received so far and not yet taken. */
    int queued() {
        return received.size();
    }
}
