package dev.warden.http.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.warden.core.incident.IncidentSink;
import dev.warden.server.McpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Clients that send their bodies a byte at a time (slowloris) hold no thread while the server
 * waits for them: more of them than the server runs tasks at once (Jetty's virtual-thread pool
 * runs 200) leave an honest client served, and each is cut at its deadline.
 */
class SlowBodiesTest {

    /** More than the 200 tasks Jetty's {@code VirtualThreadPool} runs at once. */
    private static final int SLOW = 250;

    private final TestClock clock = new TestClock();
    private final List<Socket> slow = new ArrayList<>();
    private McpHttpServer http;

    @BeforeEach
    void start() throws Exception {
        McpServer server = McpServer.builder("slow-bodies", "1").incidents(IncidentSink.all()).build();
        http = McpHttpServer.builder().clock(clock).requestTimeout(Duration.ofSeconds(30))
                .onSession(server::connect).build().start();
    }

    @AfterEach
    void stop() throws IOException {
        for (Socket socket : slow) {
            socket.close();
        }
        http.close();
    }

    @Test
    void slowBodiesBeyondThePoolLeaveAnHonestClientServedAndAreCutOnceLate() {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (int i = 0; i < SLOW; i++) {
                Socket socket = new Socket();
                slow.add(socket);
                socket.connect(new InetSocketAddress("127.0.0.1", http.port()));
                socket.setSoTimeout(20_000); // bounds a failure only
                socket.getOutputStream().write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + http.port()
                        + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                        + "Expect: 100-continue\r\nContent-Length: 1000\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            }
            // The server asks for a body when its handler starts reading it: every slow body is awaited at once.
            for (Socket socket : slow) {
                assertThat(statusLine(socket.getInputStream())).contains(" 100 ");
                socket.getOutputStream().write('{');
            }

            HttpPeer honest = new HttpPeer(http.endpoint());
            assertThat(honest.initialize()).isNotEmpty();

            clock.advance(Duration.ofSeconds(31)); // every slow connection was opened before this
            for (Socket socket : slow) {
                assertClosed(socket.getInputStream());
            }
        });
    }

    private static String statusLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
            line.append((char) c);
        }
        in.read(); // the blank line that ends the interim response
        in.read();
        return line.toString();
    }

    /** Reads until the server closes the connection, which it does at its next sweep (within 20 s or fails). */
    private static void assertClosed(InputStream in) throws IOException {
        try {
            while (in.read() >= 0) {
                // an answer to the partial body would do as well as a close; the end is what matters
            }
        } catch (SocketException reset) {
            // closed with a reset: closed all the same
        }
    }
}
