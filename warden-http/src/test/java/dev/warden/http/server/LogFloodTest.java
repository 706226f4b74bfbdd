package dev.warden.http.server;

import static dev.warden.http.server.HttpPeer.sessionHeaders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Logging;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A client that reads its stream, only slower than a tool logs, loses log notifications, never its
 * answer or a request to it: the stream is cut only for a client that does not read at all
 * ({@link SlowReaderTest}).
 *
 * <p>The tool may run at most {@link #WINDOW} notifications ahead of what the client has read (a
 * permit per 4 KiB read), and the client reads nothing until the tool has used that window: 8 MiB
 * of notifications, more than the kernel buffers between the two (a few MiB on loopback; the
 * client's receive buffer is kept small), so some are dropped whatever the scheduling. The
 * buffer holds 16 events, and 32 MiB, more than the window and the kernel's buffers together: the
 * stream is cut only once a whole buffer's worth (in events and in bytes) is dropped while nothing
 * could be written, which a reading client never lets happen.
 */
class LogFloodTest {

    private static final String PADDING = "x".repeat(4000);
    private static final int WINDOW = 2048;
    private static final int FLOOD = 2 * WINDOW;
    private static final String INIT_WITH_ROOTS = """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",\
            "capabilities":{"roots":{}},"clientInfo":{"name":"test","version":"1"}}}""";

    private final Semaphore room = new Semaphore(WINDOW);
    private final CountDownLatch windowUsed = new CountDownLatch(1);
    private McpHttpServer http;
    private HttpPeer peer;

    @BeforeEach
    void start() throws Exception {
        McpServer server = McpServer.builder("log-flood", "1").incidents(IncidentSink.all())
                .tool(ToolSpec.builder("chatty").handler(call -> {
                    // On the handler's own thread: its log notifications go on this call's stream.
                    flood(call.context()::log, 0, FLOOD);
                    return ToolResult.text("done after " + FLOOD);
                }).build())
                .tool(ToolSpec.builder("ask").handler(call -> {
                    flood(call.context()::log, 0, WINDOW);
                    windowUsed.countDown(); // the window used up exactly: the client may read now
                    JsonNode roots = call.context().requestClient("roots/list", Json.object());
                    flood(call.context()::log, WINDOW, FLOOD);
                    return ToolResult.text("roots: " + roots.path("roots").size());
                }).build())
                .build();
        http = McpHttpServer.builder().streamBuffer(16, 32L * 1024 * 1024).onSession(server::connect).build().start();
        peer = new HttpPeer(http.endpoint());
    }

    @AfterEach
    void stop() {
        HttpPeer.closeAll();
        http.close();
    }

    /** Logs notifications {@code from} to {@code to}, each waiting for room once the window is used. */
    private void flood(Log log, int from, int to) throws InterruptedException {
        for (int i = from; i < to; i++) {
            if (!room.tryAcquire()) {
                windowUsed.countDown();
                room.acquire();
            }
            log.log(Logging.Level.INFO, "line " + i + " " + PADDING);
        }
    }

    private interface Log {
        void log(Logging.Level level, String text);
    }

    @Test
    void aClientReadingSlowerThanALogFloodLosesSomeLogsAndGetsItsAnswerOnce() throws Exception {
        String session = peer.initialize();

        List<HttpPeer.Event> events = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> readCall("""
                {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"chatty","arguments":{}}}""",
                session, request -> {
                    throw new AssertionError("no request expected, got " + request);
                }));

        assertThat(answers(events)).containsExactly("done after " + FLOOD);
        long logs = logs(events);
        assertThat(http.stats().notificationsDropped()).isPositive();
        assertThat(logs + http.stats().notificationsDropped()).isEqualTo(FLOOD); // each sent or dropped, once
        assertThat(http.stats().streamsCut()).isZero();
        assertConsecutiveIds(events); // a dropped notification takes no event id
    }

    @Test
    void aRequestToTheClientAndTheAnswerAreNeverDroppedDuringALogFlood() throws Exception {
        String session = peer.send(peer.post(INIT_WITH_ROOTS, HttpPeer.jsonHeaders())).headers()
                .firstValue("Mcp-Session-Id").orElseThrow();
        peer.send(peer.post(HttpPeer.INITIALIZED, sessionHeaders(session)));
        List<String> asked = new ArrayList<>();

        List<HttpPeer.Event> events = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> readCall("""
                {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask","arguments":{}}}""",
                session, request -> {
                    asked.add(request.path("method").asString());
                    peer.send(peer.post("{\"jsonrpc\":\"2.0\",\"id\":" + request.get("id") + ",\"result\":{\"roots\":"
                            + "[{\"uri\":\"file:///a\"}]}}", sessionHeaders(session)));
                }));

        assertThat(asked).containsExactly("roots/list"); // asked once, when the queue was full of logs
        assertThat(answers(events)).containsExactly("roots: 1");
        assertThat(http.stats().notificationsDropped()).isPositive();
        assertThat(logs(events) + http.stats().notificationsDropped()).isEqualTo(FLOOD);
        assertThat(http.stats().streamsCut()).isZero();
        assertConsecutiveIds(events);
    }

    private interface OnRequest {
        void asked(JsonNode request) throws Exception;
    }

    /**
     * Posts a call on a raw socket with a small receive buffer, reads nothing until the tool has
     * used its window, then reads the stream to its end in 4 KiB reads, each giving the tool room
     * for one more notification; requests to the client are handed to {@code onRequest} as they come.
     */
    private List<HttpPeer.Event> readCall(String body, String session, OnRequest onRequest) throws Exception {
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(4096);
            socket.connect(new InetSocketAddress("127.0.0.1", http.port()));
            socket.setSoTimeout(30_000);
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + http.port() + "\r\n"
                    + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                    + "Mcp-Session-Id: " + session + "\r\nMCP-Protocol-Version: 2025-11-25\r\n"
                    + "Content-Length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.flush();

            assertThat(windowUsed.await(30, TimeUnit.SECONDS)).isTrue();
            InputStream paced = new java.io.BufferedInputStream(new Paced(socket.getInputStream()), 4096);
            Iterator<String> lines = new BufferedReader(new InputStreamReader(new ChunkedBody(paced),
                    StandardCharsets.UTF_8), 4096).lines().iterator();
            List<HttpPeer.Event> events = new ArrayList<>();
            for (List<HttpPeer.Event> next = HttpPeer.events(lines, 1); !next.isEmpty(); next = HttpPeer.events(lines, 1)) {
                HttpPeer.Event event = next.get(0);
                events.add(event);
                if (!event.data().isEmpty()) {
                    JsonNode message = Json.mapper().readTree(event.data());
                    if (message.has("method") && message.has("id")) {
                        onRequest.asked(message);
                    }
                }
            }
            return events;
        }
    }

    private static List<String> answers(List<HttpPeer.Event> events) {
        return messages(events).stream().filter(m -> m.path("id").asInt() == 1 && m.has("result"))
                .map(m -> m.at("/result/content/0/text").asString()).toList();
    }

    private static long logs(List<HttpPeer.Event> events) {
        return messages(events).stream().filter(m -> "notifications/message".equals(m.path("method").asString())).count();
    }

    private static List<JsonNode> messages(List<HttpPeer.Event> events) {
        return events.stream().map(HttpPeer.Event::data).filter(d -> !d.isEmpty()).map(Json.mapper()::readTree).toList();
    }

    /** The events' ids are {@code <stream>_1, _2, ...} (after the priming event, {@code _0}) without a gap. */
    private static void assertConsecutiveIds(List<HttpPeer.Event> events) {
        List<Long> numbers = events.stream().map(HttpPeer.Event::id).flatMap(Optional::stream)
                .map(id -> Long.parseLong(id.substring(id.lastIndexOf('_') + 1))).toList();
        for (int i = 0; i < numbers.size(); i++) {
            assertThat(numbers.get(i)).isEqualTo(numbers.get(0) + i);
        }
    }

    /** A stream read in chunks; a single byte is a chunk of one. */
    private abstract static class ChunkStream extends InputStream {
        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public abstract int read(byte[] b, int off, int len) throws IOException;
    }

    /** The socket's bytes, one permit of room for the tool per 4 KiB read. */
    private final class Paced extends ChunkStream {
        private final InputStream in;
        private long read;

        Paced(InputStream in) {
            this.in = in;
        }


        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, Math.min(len, 4096));
            if (n > 0) {
                long before = read / 4096;
                read += n;
                room.release((int) (read / 4096 - before));
            }
            return n;
        }
    }

    /** The body of an HTTP/1.1 response with chunked transfer encoding; the status and headers skipped. */
    private static final class ChunkedBody extends ChunkStream {
        private final InputStream in;
        private long left;
        private boolean started;
        private boolean done;

        ChunkedBody(InputStream in) throws IOException {
            this.in = in;
            String status = line();
            assertThat(status).startsWith("HTTP/1.1 200");
            boolean chunked = false;
            for (String header = line(); !header.isEmpty(); header = line()) {
                chunked |= header.equalsIgnoreCase("Transfer-Encoding: chunked");
            }
            assertThat(chunked).as("a chunked event stream").isTrue();
        }


        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (done) {
                return -1;
            }
            if (left == 0) {
                if (started) {
                    line(); // the CRLF closing the previous chunk
                }
                started = true;
                String size = line();
                left = Long.parseLong(size.split(";")[0].trim(), 16);
                if (left == 0) {
                    done = true;
                    return -1;
                }
            }
            int n = in.read(b, off, (int) Math.min(len, left));
            if (n < 0) {
                throw new IOException("the connection ended inside a chunk: the stream was cut");
            }
            left -= n;
            return n;
        }

        private String line() throws IOException {
            StringBuilder sb = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new IOException("the connection ended: the stream was cut");
                }
                if (c != '\r') {
                    sb.append((char) c);
                }
            }
            return sb.toString();
        }
    }
}
