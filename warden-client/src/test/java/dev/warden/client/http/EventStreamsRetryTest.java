package dev.warden.client.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.transport.Transport;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A request's event stream that ends before its answer is resumed the server's {@code retry} delay
 * after its end was read: the time the client spends after that moment (closing the stream, handing
 * its last event on) is part of the delay, not added to it (the conformance suite's sse-retry
 * scenario allows 200 ms late). The clock is the test's: each reading is {@link #STEP} after the last.
 */
class EventStreamsRetryTest {

    /** How far the test's clock moves between two readings: the client's own work after the end. */
    private static final long STEP = TimeUnit.MILLISECONDS.toNanos(30);

    private final List<String> lastEventIds = new CopyOnWriteArrayList<>();
    private final List<byte[]> frames = new CopyOnWriteArrayList<>();
    private final HttpServer server;

    EventStreamsRetryTest() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/mcp", this::resume);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    /** The resumption (GET with Last-Event-ID): the answer the first stream did not carry. */
    private void resume(HttpExchange exchange) throws IOException {
        try (exchange) {
            lastEventIds.add(exchange.getRequestHeaders().getFirst("Last-Event-ID"));
            exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            exchange.getResponseBody().write("""
                    id: e-2
                    data: {"jsonrpc":"2.0","id":7,"result":{"content":[]}}

                    """.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The test's clock: each reading {@link #STEP} after the previous; a sleep moves it by its length. */
    private static final class SteppedTimer implements RetryTimer {
        long now = TimeUnit.SECONDS.toNanos(1000);
        final List<Long> sleeps = new CopyOnWriteArrayList<>();

        @Override
        public synchronized long nanoTime() {
            long reading = now;
            now += STEP;
            return reading;
        }

        @Override
        public synchronized void sleepNanos(long nanos) {
            sleeps.add(nanos);
            now += nanos;
        }
    }

    private void readResuming(RetryTimer timer, String retry) {
        URI endpoint = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
        Inbound inbound = new Inbound();
        inbound.start(new Transport.Listener() {
            @Override
            public void onFrame(byte[] frame) {
                frames.add(frame);
            }

            @Override
            public void onFrameError(ProtocolException refusal) {
            }

            @Override
            public void onClose() {
            }
        });
        EventStreams streams = new EventStreams(new HttpExchanges(endpoint, Map.of(), Optional.empty()), inbound, timer);
        // The request's stream: a priming event (id, retry, no data), then its end, before the answer.
        InputStream primed = new ByteArrayInputStream(("id: e-1\nretry: " + retry + "\ndata: \n\n")
                .getBytes(StandardCharsets.UTF_8));
        streams.readResuming(primed, Set.of(RequestId.of(7)));
    }

    @Test
    void theRetryDelayCountsFromWhenTheStreamsEndWasRead() {
        SteppedTimer timer = new SteppedTimer();
        readResuming(timer, "500");
        // Read at the end (t), then once more before waiting (t + STEP): 500 ms in all from the end, no more.
        assertThat(timer.sleeps).containsExactly(TimeUnit.MILLISECONDS.toNanos(500) - STEP);
        assertThat(lastEventIds).containsExactly("e-1");
        assertThat(frames).hasSize(1);
        assertThat(new String(frames.getFirst(), StandardCharsets.UTF_8)).contains("\"id\":7");
    }

    @Test
    void aDelayAlreadySpentIsNotWaitedAgain() {
        SteppedTimer timer = new SteppedTimer();
        readResuming(timer, "20"); // shorter than the client's own work after the end
        assertThat(timer.sleeps).isEmpty();
        assertThat(lastEventIds).containsExactly("e-1");
        assertThat(frames).hasSize(1);
    }
}
