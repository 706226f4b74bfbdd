package dev.warden.http.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.server.McpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** What a client sends too slowly, too big or too deep is refused, over a real socket. */
class SlowAndMalformedHttpTest {

    private final TestClock clock = new TestClock();
    private McpHttpServer http;

    @BeforeEach
    void start() throws Exception {
        McpServer server = McpServer.builder("hostile", "1").incidents(IncidentSink.all()).build();
        http = McpHttpServer.builder().clock(clock).requestTimeout(Duration.ofSeconds(30))
                .keepAlive(Duration.ofMillis(50)).maxBodyBytes(64 * 1024).maxHeaderBytes(8 * 1024)
                .onSession(server::connect).build().start();
    }

    @AfterEach
    void stop() {
        HttpPeer.closeAll();
        http.close();
    }

    @Test
    void headersTrickledPastTheRequestTimeoutLoseTheConnection() throws Exception {
        try (Socket socket = connect()) {
            send(socket, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a");

            assertClosedOnceLate(socket);
        }
    }

    @Test
    void aBodyTrickledPastTheRequestTimeoutLosesTheConnection() throws Exception {
        try (Socket socket = connect()) {
            send(socket, head("Content-Length: 1000\r\n") + "{\"jsonrpc\":");

            assertClosedOnceLate(socket);
        }
    }

    @Test
    void anOversizedHeaderBlockIs431() throws Exception {
        try (Socket socket = connect()) {
            send(socket, head("X-Big: " + "a".repeat(16 * 1024) + "\r\nContent-Length: 2\r\n") + "{}");

            assertThat(statusLine(socket)).contains(" 431 ");
        }
    }

    @Test
    void anOversizedChunkedBodyIs413WithoutBeingBuffered() throws Exception {
        try (Socket socket = connect()) {
            StringBuilder chunks = new StringBuilder();
            String chunk = "x".repeat(8192);
            for (int i = 0; i < 16; i++) { // 128 KiB against a 64 KiB limit, no length declared
                chunks.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk).append("\r\n");
            }
            send(socket, head("Transfer-Encoding: chunked\r\n") + chunks + "0\r\n\r\n");

            assertThat(statusLine(socket)).contains(" 413 ");
        }
    }

    /**
     * A client that writes its whole body before it reads (the JDK's client does): closing the
     * connection with 50 MiB still coming would make the kernel answer with a reset, which fails
     * the client's write and takes the 413 with it.
     */
    @Test
    void aBodyFiftyMebibytesOverTheCapSentWholeBeforeReadingGetsIts413() throws Exception {
        int size = 50 * 1024 * 1024;
        try (Socket socket = connect()) {
            send(socket, head("Content-Length: " + size + "\r\n"));
            byte[] block = new byte[64 * 1024];
            java.util.Arrays.fill(block, (byte) 'x');
            OutputStream out = socket.getOutputStream();
            for (int sent = 0; sent < size; sent += block.length) {
                out.write(block);
            }
            out.flush();

            assertThat(statusLine(socket)).contains(" 413 ");
        }
    }

    @Test
    void deepNestingIsAParseErrorNotAStackOverflow() throws Exception {
        String deep = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"x\":"
                + "[".repeat(30_000) + "]".repeat(30_000) + "}}";
        JsonNode error = post(deep);
        assertThat(error.at("/error/code").asInt()).isEqualTo(-32700);
    }

    @Test
    void aNumberOfThousandsOfDigitsIsAParseError() throws Exception {
        JsonNode error = post("{\"jsonrpc\":\"2.0\",\"id\":" + "9".repeat(5000) + ",\"method\":\"initialize\"}");
        assertThat(error.at("/error/code").asInt()).isEqualTo(-32700);
    }

    @Test
    void aHugeExponentAsAnIdIsAnInvalidRequest() throws Exception {
        JsonNode error = post("{\"jsonrpc\":\"2.0\",\"id\":1e999999999,\"method\":\"initialize\"}");
        assertThat(error.at("/error/code").asInt()).isEqualTo(-32600);
    }

    private JsonNode post(String body) throws Exception {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        try (Socket socket = connect()) {
            send(socket, head("Content-Length: " + bytes.length + "\r\nConnection: close\r\n") + body);
            String response = new String(readAll(socket), StandardCharsets.UTF_8);
            assertThat(response).startsWith("HTTP/1.1 400 ");
            return Json.mapper().readTree(response.substring(response.indexOf("\r\n\r\n") + 4));
        }
    }

    private String head(String extra) {
        return "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + http.port() + "\r\nContent-Type: application/json\r\n"
                + "Accept: application/json, text/event-stream\r\n" + extra + "\r\n";
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", http.port()));
        socket.setSoTimeout(20_000);
        return socket;
    }

    private static void send(Socket socket, String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static String statusLine(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
            line.append((char) c);
        }
        return line.toString();
    }

    /**
     * Moves the clock past the deadline until the server has closed the connection. Moved more than
     * once because the server registers a connection on its own thread, maybe after a first move;
     * the wait only bounds a failure: a correct server closes the connection at its next sweep.
     */
    private void assertClosedOnceLate(Socket socket) {
        assertTimeoutPreemptively(Duration.ofSeconds(15), () -> {
            socket.setSoTimeout(100);
            byte[] buffer = new byte[4096];
            while (true) {
                clock.advance(Duration.ofSeconds(31));
                try {
                    if (socket.getInputStream().read(buffer) < 0) {
                        return;
                    }
                } catch (java.net.SocketTimeoutException notYet) {
                    // still open: the clock moves on
                } catch (java.net.SocketException reset) {
                    return; // closed with a reset: closed all the same
                }
            }
        });
    }

    private static byte[] readAll(Socket socket) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        socket.getInputStream().transferTo(all);
        return all.toByteArray();
    }
}
