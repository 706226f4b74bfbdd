package dev.warden.client.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.jsonrpc.FrameHints;
import dev.warden.core.transport.StdioTransport;
import dev.warden.core.transport.Transport;
import dev.warden.core.transport.TransportClosedException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Servers on the older HTTP+SSE transport that try to exhaust the client: an endless event, an
 * endless answer to a POST, an event stream that never names its endpoint. The client keeps its
 * memory bounded and lets go of the connection. (The bounds on waits below are safety nets for a
 * broken client, never what a test's outcome depends on.)
 */
class LegacySseHostileServerTest {

    private static final String ENDPOINT_EVENT = "event: endpoint\ndata: /messages\n\n";
    private final CountDownLatch done = new CountDownLatch(1);
    private HttpServer server;
    private Transport transport;

    @AfterEach
    void stop() {
        done.countDown();
        if (transport != null) {
            transport.close();
        }
        if (server != null) {
            server.stop(0);
        }
    }

    private URI serve(com.sun.net.httpserver.HttpHandler stream, com.sun.net.httpserver.HttpHandler messages)
            throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/sse", stream);
        server.createContext("/messages", messages);
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/sse");
    }

    /** Opens the stream, names the endpoint, then writes {@code then} and holds the stream open. */
    private com.sun.net.httpserver.HttpHandler streamThen(Writer then) {
        return exchange -> {
            try (exchange) {
                exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
                exchange.sendResponseHeaders(200, 0);
                OutputStream out = exchange.getResponseBody();
                out.write(ENDPOINT_EVENT.getBytes(StandardCharsets.UTF_8));
                out.flush();
                then.write(out);
                out.flush();
                done.await();
            } catch (IOException | InterruptedException e) {
                // the client went away
            }
        };
    }

    interface Writer {
        void write(OutputStream out) throws IOException;
    }

    @Test
    void anEventOverTheLimitIsRefusedNotKept() throws Exception {
        // 1 MiB data lines with no blank line, past the limit, then a small message: the large
        // event is one oversized refusal, and the stream goes on.
        byte[] line = ("data: " + "x".repeat(1024 * 1024 - 7) + "\n").getBytes(StandardCharsets.US_ASCII);
        URI url = serve(streamThen(out -> {
            for (long sent = 0; sent <= StdioTransport.DEFAULT_MAX_MESSAGE_BYTES; sent += line.length) {
                out.write(line);
            }
            out.write("\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/ping\"}\n\n"
                    .getBytes(StandardCharsets.UTF_8));
        }), exchange -> exchange.close());
        List<Integer> frames = new CopyOnWriteArrayList<>();
        List<ProtocolException> refusals = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> small = new CompletableFuture<>();
        transport = LegacySseTransport.open(url, Map.of(), Optional.empty(), Duration.ofSeconds(10));
        transport.start(new Transport.Listener() {
            @Override
            public void onFrame(byte[] frame) {
                frames.add(frame.length);
                if (frame.length < 100) {
                    small.complete(null);
                }
            }

            @Override
            public void onFrameError(ProtocolException refusal) {
                refusals.add(refusal);
            }

            @Override
            public void onOversizedFrame(FrameHints hints, ProtocolException refusal) {
                refusals.add(refusal);
            }

            @Override
            public void onClose() {
                small.complete(null);
            }
        });
        small.get(60, TimeUnit.SECONDS);
        assertThat(frames).as("frames handed on").allMatch(n -> n < 100).hasSize(1);
        assertThat(refusals).hasSize(1);
        assertThat(refusals.getFirst().getMessage()).contains("exceeds the maximum size");
    }

    @Test
    void anEndlessAnswerToAPostIsLetGo() throws Exception {
        // A 202 whose body is 48 MiB: the client reads a little and closes; the server's write fails.
        long size = 48L * 1024 * 1024;
        CompletableFuture<Long> written = new CompletableFuture<>();
        URI url = serve(streamThen(out -> { }), exchange -> {
            long sent = 0;
            try (exchange; InputStream in = exchange.getRequestBody()) {
                in.readAllBytes();
                exchange.sendResponseHeaders(202, size);
                OutputStream out = exchange.getResponseBody();
                byte[] chunk = new byte[64 * 1024];
                for (; sent < size; sent += chunk.length) {
                    out.write(chunk);
                }
                out.flush();
            } catch (IOException e) {
                // the client closed the connection
            }
            written.complete(sent);
        });
        transport = LegacySseTransport.open(url, Map.of(), Optional.empty(), Duration.ofSeconds(10));
        transport.start(new Transport.Listener() {
            @Override
            public void onFrame(byte[] frame) {
            }

            @Override
            public void onFrameError(ProtocolException refusal) {
            }

            @Override
            public void onClose() {
            }
        });
        transport.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        assertThat(written.get(60, TimeUnit.SECONDS)).as("bytes the server wrote before the client let go")
                .isLessThan(size);
    }

    @Test
    void anOpenThatTimesOutClosesTheStreamsConnection() throws Exception {
        // An event stream that sends a comment and never the endpoint: after the open's timeout,
        // the server sees its connection closed (the GET does not go on reading).
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> closed = rawServer(listener,
                    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                            + "b\r\n: waiting\n\n\r\n");
            URI url = URI.create("http://127.0.0.1:" + listener.getLocalPort() + "/sse");
            assertThatThrownBy(() -> LegacySseTransport.open(url, Map.of(), Optional.empty(), Duration.ofMillis(200)))
                    .isInstanceOf(TransportClosedException.class).hasMessageContaining("no endpoint event");
            closed.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void anOpenThatTimesOutBeforeAnyAnswerAbortsTheRequest() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> closed = rawServer(listener, "");
            URI url = URI.create("http://127.0.0.1:" + listener.getLocalPort() + "/sse");
            assertThatThrownBy(() -> LegacySseTransport.open(url, Map.of(), Optional.empty(), Duration.ofMillis(200)))
                    .isInstanceOf(TransportClosedException.class).hasMessageContaining("no endpoint event");
            closed.get(30, TimeUnit.SECONDS);
        }
    }

    /** Accepts one connection, reads the request head, writes {@code answer}, completes when the client closes. */
    private static CompletableFuture<Void> rawServer(ServerSocket listener, String answer) {
        CompletableFuture<Void> closed = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try (Socket socket = listener.accept()) {
                InputStream in = socket.getInputStream();
                int matched = 0;
                byte[] end = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
                for (int b; matched < end.length && (b = in.read()) >= 0; ) {
                    matched = b == end[matched] ? matched + 1 : b == end[0] ? 1 : 0;
                }
                socket.getOutputStream().write(answer.getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                while (in.read() >= 0) {
                    // the client sends nothing more; -1 is its close
                }
                closed.complete(null);
            } catch (IOException e) {
                closed.complete(null); // reset by the client: closed as well
            }
        });
        return closed;
    }
}
