package dev.warden.http.server;

import static dev.warden.http.server.HttpPeer.sessionHeaders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A client that stops reading its event stream costs only itself. The tools here do their work on
 * one shared thread, as a gateway's calls share the reader thread of one upstream: if a send to
 * the slow client blocked that thread, every other client would wait.
 */
class SlowReaderTest {

    private static final String PADDING = "x".repeat(4096);

    private final ExecutorService upstream = Executors.newSingleThreadExecutor();
    private final CountDownLatch floodCancelled = new CountDownLatch(1);
    private McpHttpServer http;
    private HttpPeer peer;

    @BeforeEach
    void start() throws Exception {
        McpServer server = McpServer.builder("slow-reader", "1").incidents(IncidentSink.all())
                .tool(ToolSpec.builder("flood").handler(call -> {
                    try {
                        upstream.submit(() -> {
                            for (int i = 0; i < 2000; i++) {
                                call.context().progress(i, 2000, PADDING);
                            }
                        }).get();
                        // The call stays in flight: cutting its stream must cancel it.
                        new CountDownLatch(1).await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        floodCancelled.countDown(); // cancelled during the flood or after it
                        throw e;
                    }
                    return ToolResult.text("flooded");
                }).build())
                .tool(ToolSpec.builder("echo").handler(call -> ToolResult.text(
                        upstream.submit(() -> call.arguments().path("text").asString("")).get())).build())
                .build();
        http = McpHttpServer.builder().streamBuffer(64, 64 * 1024).onSession(server::connect).build().start();
        peer = new HttpPeer(http.endpoint());
    }

    @AfterEach
    void stop() {
        HttpPeer.closeAll();
        http.close();
        upstream.shutdownNow();
    }

    @Test
    void aClientThatNeverReadsItsStreamIsCutAndAnotherClientIsServedMeanwhile() throws Exception {
        String slow = peer.initialize();
        String honest = peer.initialize();

        floodUnread("""
                {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"flood","arguments":{},\
                "_meta":{"progressToken":"p"}}}""", "Mcp-Session-Id: " + slow + "\r\nMCP-Protocol-Version: 2025-11-25\r\n",
                () -> peer.send(peer.post("""
                        {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}""",
                        sessionHeaders(honest))).body());
    }

    @Test
    void aStatelessClientThatNeverReadsItsStreamIsCutToo() throws Exception {
        String meta = "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}";
        String honest = peer.initialize();

        floodUnread("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"flood\","
                + "\"arguments\":{},\"_meta\":{\"progressToken\":\"p\"," + meta + "}}}",
                "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: flood\r\n",
                () -> peer.send(peer.post("""
                        {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}""",
                        sessionHeaders(honest))).body());
    }

    /**
     * Sends a flood call on a raw socket whose client never reads, then asserts: the honest call
     * is answered meanwhile (the shared thread was not held), the flood call is cancelled, the
     * stream is counted as cut, and the slow client's connection ends once what the kernel buffered
     * is read (at once, or by the idle timeout at the latest).
     */
    private void floodUnread(String body, String headers, java.util.concurrent.Callable<String> honestCall)
            throws Exception {
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(4096); // a small window, and nothing read from it
            socket.connect(new java.net.InetSocketAddress("127.0.0.1", http.port()));
            socket.setSoTimeout(20_000);
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + http.port() + "\r\n"
                    + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                    + headers + "Content-Length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.flush();

            assertTimeoutPreemptively(Duration.ofSeconds(15), () -> {
                String answer = honestCall.call();
                assertThat(HttpPeer.events(answer).stream().map(e -> e.data()).filter(d -> !d.isEmpty())
                        .map(d -> Json.mapper().readTree(d).at("/result/content/0/text").asString())).contains("hi");
                assertThat(floodCancelled.await(15, TimeUnit.SECONDS)).isTrue();
            });
            // The cut aborts the response; under load, a writer blocked on the full socket can hold
            // the connection open until Jetty's idle timeout (30 s) ends it: bounded either way.
            socket.setSoTimeout(60_000);
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                InputStream in = socket.getInputStream();
                byte[] buffer = new byte[64 * 1024];
                while (in.read(buffer) >= 0) {
                    // what the kernel buffered before the cut, then the end of the connection
                }
            });
        } catch (java.net.SocketException reset) {
            // a reset is a closed stream too
        }
        assertThat(http.stats().streamsCut()).isEqualTo(1);
    }
}
