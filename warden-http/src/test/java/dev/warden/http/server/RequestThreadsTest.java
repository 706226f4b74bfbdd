package dev.warden.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.incident.IncidentSink;
import dev.warden.server.McpServer;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Jetty's selector runs on a platform thread of its own (issue 36: no hop through the JDK's poller
 * for each wake-up of a connection), but what serves a request is still plain blocking code on a
 * virtual thread: a body that came at once, and one that came later (read when Jetty's demand for
 * it fires).
 */
class RequestThreadsTest {

    /** Whether each session was opened on a virtual thread, in the order opened. */
    private final List<Boolean> openedOnVirtualThread = new CopyOnWriteArrayList<>();
    private McpHttpServer http;
    private HttpPeer peer;

    @BeforeEach
    void start() throws Exception {
        McpServer server = McpServer.builder("threads", "1").incidents(IncidentSink.all()).build();
        http = McpHttpServer.builder().onSession(transport -> {
            openedOnVirtualThread.add(Thread.currentThread().isVirtual());
            server.connect(transport);
        }).build().start();
        peer = new HttpPeer(http.endpoint());
    }

    @AfterEach
    void stop() {
        HttpPeer.closeAll();
        http.close();
    }

    @Test
    void aNewSessionIsOpenedOnAVirtualThreadAndAnswered() throws Exception {
        assertThat(peer.initialize()).isNotEmpty();
        assertThat(openedOnVirtualThread).containsExactly(true);
    }

    @Test
    void aBodyThatComesAfterItsHeadersIsServedOnAVirtualThreadAndAnswered() throws Exception {
        byte[] body = HttpPeer.INIT.getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", http.port()));
            socket.setSoTimeout(20_000); // bounds a failure only
            OutputStream out = socket.getOutputStream();
            out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + http.port() + "\r\nContent-Type: application/json\r\n"
                    + "Accept: application/json, text/event-stream\r\nExpect: 100-continue\r\nContent-Length: "
                    + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            assertThat(line(in)).contains(" 100 "); // the server waits for the body: it comes now
            line(in);
            out.write(body);
            out.flush();
            assertThat(line(in)).contains(" 200 ");
            assertThat(untilAnswer(in)).contains("\"id\":1").contains("\"result\"");
        }
        assertThat(openedOnVirtualThread).containsExactly(true);
    }

    private static String line(InputStream in) throws Exception {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
            line.write(c);
        }
        return line.toString(StandardCharsets.US_ASCII);
    }

    /** The first line that carries an answer (the event's data), skipping headers and other lines. */
    private static String untilAnswer(InputStream in) throws Exception {
        String l = line(in);
        while (!l.contains("\"result\"") && !l.contains("\"error\"")) {
            l = line(in);
        }
        return l;
    }
}
