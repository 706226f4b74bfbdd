package dev.warden.audit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RawPostsTest {

    private volatile String initialized = "{\"jsonrpc\":\"2.0\",\"id\":\"wdn-raw-init\",\"result\":"
            + "{\"protocolVersion\":\"2025-03-26\",\"capabilities\":{},\"serverInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

    private HttpServer server;
    private final List<Map<String, String>> seen = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private final HttpClient client = HttpClient.newHttpClient();

    /** initialize → a session; "sse" → an SSE answer; "crash" → 500 with a stack; "hang" → nothing. */
    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/mcp", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            seen.add(Map.of("session", String.valueOf(exchange.getRequestHeaders().getFirst("Mcp-Session-Id")),
                    "version", String.valueOf(exchange.getRequestHeaders().getFirst("MCP-Protocol-Version")),
                    "key", String.valueOf(exchange.getRequestHeaders().getFirst("X-API-Key")), "body", body));
            String answer;
            int status = 200;
            String type = "application/json";
            if (body.contains("\"initialize\"")) {
                exchange.getResponseHeaders().add("Mcp-Session-Id", "s-1");
                answer = initialized;
            } else if (body.contains("sse")) {
                type = "text/event-stream";
                answer = "event: message\r\nid: 1\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"a\",\r\ndata: \"result\":{}}\r\n\r\n"
                        + "data: {\"jsonrpc\":\"2.0\",\"id\":\"b\",\"error\":{\"code\":-32000,\"message\":\"x\"}}\n\n";
            } else if (body.contains("crash")) {
                status = 500;
                type = "text/plain";
                answer = "java.lang.NullPointerException\n\tat com.acme.Handler.handle(Handler.java:42)";
            } else if (body.contains("hang")) {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                answer = "";
            } else {
                exchange.sendResponseHeaders(202, -1);
                exchange.close();
                return;
            }
            byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", type);
            exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.stop(0);
        client.close();
    }

    private RawPosts open() throws Exception {
        URI endpoint = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
        return RawPosts.open(client, endpoint, Map.of("X-API-Key", "k"), Duration.ofMillis(800));
    }

    @Test
    void everyPostCarriesTheTargetsHeadersTheSessionAndTheNegotiatedVersion() throws Exception {
        try (RawPosts posts = open()) {
            posts.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":42}");
        }

        Map<String, String> raw = seen.stream().filter(r -> r.get("body").contains("42")).findFirst().orElseThrow();
        assertThat(raw).containsEntry("session", "s-1").containsEntry("version", "2025-03-26")
                .containsEntry("key", "k").containsEntry("body", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":42}");
        assertThat(seen.get(1).get("body")).contains("notifications/initialized");
    }

    @Test
    void aVersionTheServerChoseThatCannotBeAHeaderIsNotSentBackAndEndsNothing() throws Exception {
        initialized = initialized.replace("2025-03-26", "2025-03-26\\n\\u0007");
        try (RawPosts posts = open()) {
            posts.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":42}");
        }

        Map<String, String> raw = seen.stream().filter(r -> r.get("body").contains("42")).findFirst().orElseThrow();
        assertThat(raw).containsEntry("session", "s-1").containsEntry("version", "null");
    }

    @Test
    void anSseAnswersEventsAreReadAsMessages() throws Exception {
        try (RawPosts posts = open()) {
            RawPosts.Outcome outcome = posts.post("sse");

            assertThat(outcome).isInstanceOfSatisfying(RawPosts.Outcome.Answered.class, a -> {
                assertThat(a.status()).isEqualTo(200);
                assertThat(a.messages()).extracting(m -> m.get("id").asString()).containsExactly("a", "b");
                assertThat(a.unreadable()).isEmpty();
            });
        }
    }

    @Test
    void aBodyThatIsNoJsonRpcIsKeptAsTextWithItsStatus() throws Exception {
        try (RawPosts posts = open()) {
            RawPosts.Outcome outcome = posts.post("crash");

            assertThat(outcome).isInstanceOfSatisfying(RawPosts.Outcome.Answered.class, a -> {
                assertThat(a.status()).isEqualTo(500);
                assertThat(a.messages()).isEmpty();
                assertThat(a.unreadable()).singleElement().asString().contains("Handler.java:42");
            });
        }
    }

    @Test
    void aPostLeftWithoutAnAnswerHangsNoLongerThanTheTimeout() throws Exception {
        try (RawPosts posts = open()) {
            assertThat(posts.post("hang")).isInstanceOf(RawPosts.Outcome.Hung.class);
        }
    }

    @Test
    void aNotificationsBareAcceptanceIsAnAnswerWithNoMessage() throws Exception {
        try (RawPosts posts = open()) {
            assertThat(posts.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}"))
                    .isEqualTo(new RawPosts.Outcome.Answered(202, List.of(), List.of()));
        }
    }
}
