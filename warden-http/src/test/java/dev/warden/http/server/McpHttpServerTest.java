package dev.warden.http.server;

import static dev.warden.http.server.HttpPeer.INIT;
import static dev.warden.http.server.HttpPeer.jsonHeaders;
import static dev.warden.http.server.HttpPeer.sessionHeaders;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Logging;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Every status the MCP endpoint can answer with, and what the client receives with it. */
class McpHttpServerTest {

    private final CountDownLatch slowCancelled = new CountDownLatch(1);
    /** Counted down once the client has read its cut stream to the end: the answer must come after. */
    private final CountDownLatch cutStreamRead = new CountDownLatch(1);
    /** The resume window's timer: it passes only when a test advances it, never while a client resumes. */
    private final ManualTimer resumeTimer = new ManualTimer();
    private static final Duration RESUME_WINDOW = Duration.ofMillis(300);
    private McpHttpServer http;
    private HttpPeer peer;

    /** What the HTTP layer's own refusals recorded. */
    private final java.util.List<dev.warden.core.incident.Incident> incidents =
            new java.util.concurrent.CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        McpServer server = McpServer.builder("http-test", "1.0.0")
                .incidents(IncidentSink.all())
                .tool(ToolSpec.builder("echo").inputSchema(
                                "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}")
                        .handler(call -> ToolResult.text(call.arguments().path("text").asString(""))).build())
                .tool(ToolSpec.builder("steps").handler(call -> {
                    for (int i = 1; i <= 3; i++) {
                        call.context().progress(i, 3, "step " + i);
                    }
                    return ToolResult.text("done");
                }).build())
                .tool(ToolSpec.builder("chatty").handler(call -> {
                    call.context().log(Logging.Level.WARNING, "almost out of space");
                    return ToolResult.text("ok");
                }).build())
                .tool(ToolSpec.builder("reconnect").handler(call -> {
                    call.context().closeStream();
                    cutStreamRead.await(20, TimeUnit.SECONDS); // bounds a failure only
                    return ToolResult.text("after reconnect");
                }).build())
                .tool(ToolSpec.builder("slow").handler(call -> {
                    try {
                        new CountDownLatch(1).await(30, TimeUnit.SECONDS); // in flight until cancelled
                    } catch (InterruptedException e) {
                        slowCancelled.countDown();
                        throw e;
                    }
                    return ToolResult.text("too late");
                }).build())
                .build();
        http = McpHttpServer.builder().resumeWindow(RESUME_WINDOW).resumeTimer(resumeTimer).keepAlive(Duration.ofMillis(200))
                .maxBodyBytes(64 * 1024)
                .onSession(server::connect)
                .boundary(dev.warden.core.incident.ErrorBoundary.builder().incidents(incidents::add).build())
                .build().start();
        peer = new HttpPeer(http.endpoint());
    }

    @AfterEach
    void stop() {
        HttpPeer.closeAll();
        http.close();
    }

    @Test
    void initializeIsAnsweredOnAnEventStreamWithANewSessionId() throws Exception {
        HttpResponse<String> response = peer.send(peer.post(INIT, jsonHeaders()));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                ct -> assertThat(ct).startsWith("text/event-stream"));
        String session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertThat(session).hasSizeGreaterThanOrEqualTo(32).matches("[\\x21-\\x7E]+");
        List<HttpPeer.Event> events = HttpPeer.events(response.body());
        assertThat(events.get(0).data()).isEmpty(); // the priming event: an id and no data
        assertThat(events.get(0).id()).isPresent();
        JsonNode answer = Json.mapper().readTree(events.get(events.size() - 1).data());
        assertThat(answer.get("id").asInt()).isEqualTo(1);
        assertThat(answer.at("/result/protocolVersion").asString()).isEqualTo("2025-11-25");
    }

    @Test
    void sessionIdsAreUniquePerInitialize() throws Exception {
        assertThat(peer.initialize()).isNotEqualTo(peer.initialize());
    }

    @Test
    void aNotificationIsAccepted202WithNoBody() throws Exception {
        String session = peer.initialize();
        HttpResponse<String> response = peer.send(peer.post(
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}", sessionHeaders(session)));

        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(response.body()).isEmpty();
    }

    @Test
    void aToolCallIsAnsweredOnItsOwnStreamWithItsOwnId() throws Exception {
        String session = peer.initialize();
        HttpResponse<String> response = peer.send(peer.post("""
                {"jsonrpc":"2.0","id":"call-7","method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}""",
                sessionHeaders(session)));

        JsonNode answer = Json.mapper().readTree(last(HttpPeer.events(response.body())).data());
        assertThat(answer.get("id").asString()).isEqualTo("call-7");
        assertThat(answer.at("/result/content/0/text").asString()).isEqualTo("hi");
    }

    @Test
    void progressTravelsOnTheStreamOfTheCallItBelongsTo() throws Exception {
        String session = peer.initialize();
        HttpResponse<String> response = peer.send(peer.post("""
                {"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"steps","arguments":{},\
                "_meta":{"progressToken":"p1"}}}""", sessionHeaders(session)));

        List<String> methods = HttpPeer.events(response.body()).stream().filter(e -> !e.data().isEmpty())
                .map(e -> Json.mapper().readTree(e.data()).path("method").asString("answer")).toList();
        assertThat(methods).containsExactly("notifications/progress", "notifications/progress",
                "notifications/progress", "answer");
    }

    @Test
    void aRequestWithoutSessionAfterInitializationIs400() throws Exception {
        HttpResponse<String> response = peer.send(peer.post(
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", jsonHeaders()));

        assertError(response, 400, -32600);
        assertThat(response.body()).contains("Mcp-Session-Id");
    }

    @Test
    void anUnknownSessionIs404ForPostGetAndDelete() throws Exception {
        Map<String, String> headers = sessionHeaders("no-such-session");
        assertError(peer.send(peer.post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", headers)), 404,
                -32600);
        assertError(peer.send(HttpRequest.newBuilder(peer.endpoint()).GET().header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", "no-such-session")), 404, -32600);
        assertError(peer.send(HttpRequest.newBuilder(peer.endpoint()).DELETE()
                .header("Mcp-Session-Id", "no-such-session")), 404, -32600);
    }

    @Test
    void aDeletedSessionAnswers404Afterwards() throws Exception {
        String session = peer.initialize();
        HttpResponse<String> deleted = peer.send(HttpRequest.newBuilder(peer.endpoint()).DELETE()
                .header("Mcp-Session-Id", session));
        assertThat(deleted.statusCode()).isEqualTo(200);

        assertError(peer.send(peer.post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
                sessionHeaders(session))), 404, -32600);
    }

    @Test
    void aBodyThatIsNotJsonContentTypeIs415() throws Exception {
        Map<String, String> headers = new HashMap<>(jsonHeaders());
        headers.put("Content-Type", "text/plain");
        assertError(peer.send(peer.post(INIT, headers)), 415, -32600);
    }

    @Test
    void anAcceptWithoutEventStreamIs406() throws Exception {
        Map<String, String> headers = new HashMap<>(jsonHeaders());
        headers.put("Accept", "application/json");
        assertError(peer.send(peer.post(INIT, headers)), 406, -32600);
    }

    @Test
    void aGetThatDoesNotAcceptEventStreamsIs406() throws Exception {
        String session = peer.initialize();
        assertError(peer.send(HttpRequest.newBuilder(peer.endpoint()).GET().header("Accept", "application/json")
                .header("Mcp-Session-Id", session)), 406, -32600);
    }

    @Test
    void anOversizedBodyIs413() throws Exception {
        String big = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"pad\":\""
                + "x".repeat(70 * 1024) + "\"}}";
        assertError(peer.send(peer.post(big, jsonHeaders())), 413, -32600);
    }

    @Test
    void malformedJsonIs400WithAParseErrorAndNullId() throws Exception {
        HttpResponse<String> response = peer.send(peer.post("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\":",
                jsonHeaders()));
        assertError(response, 400, -32700);
    }

    @Test
    void aParseErrorCarriesWardensCodeAndARefThatResolvesInTheServersIncidents() throws Exception {
        HttpResponse<String> response = peer.send(peer.post("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\":",
                jsonHeaders()));
        assertRefResolves(response, "VALIDATION_ERROR");
        assertThat(incidents.get(0).reason()).contains("malformed JSON");
    }

    @Test
    void anOversizedBodyCarriesWardensCodeAndARefThatResolvesInTheServersIncidents() throws Exception {
        String big = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"pad\":\""
                + "x".repeat(70 * 1024) + "\"}}";
        assertRefResolves(peer.send(peer.post(big, jsonHeaders())), "VALIDATION_ERROR");
    }

    private void assertRefResolves(HttpResponse<String> response, String code) {
        JsonNode data = Json.mapper().readTree(response.body()).at("/error/data");
        assertThat(data.path("code").asString()).isEqualTo(code);
        assertThat(incidents).singleElement().satisfies(incident -> {
            assertThat(incident.ref().value()).isEqualTo(data.path("ref").asString());
            assertThat(incident.code().name()).isEqualTo(code);
        });
    }

    @Test
    void anUnsupportedProtocolVersionHeaderIs400WithoutEchoingIt() throws Exception {
        String session = peer.initialize();
        Map<String, String> headers = new HashMap<>(sessionHeaders(session));
        headers.put("MCP-Protocol-Version", "1999-<script>");
        HttpResponse<String> response = peer.send(peer.post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
                headers));

        assertError(response, 400, -32600);
        assertThat(response.body()).doesNotContain("1999").doesNotContain("script");
    }

    @Test
    void anAbsentProtocolVersionHeaderIsAccepted() throws Exception {
        String session = peer.initialize();
        Map<String, String> headers = new HashMap<>(sessionHeaders(session));
        headers.remove("MCP-Protocol-Version");
        assertThat(peer.send(peer.post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", headers))
                .statusCode()).isEqualTo(200);
    }

    @Test
    void aForeignOriginIs403() throws Exception {
        Map<String, String> headers = new HashMap<>(jsonHeaders());
        headers.put("Origin", "http://evil.example.com");
        HttpResponse<String> response = peer.send(peer.post(INIT, headers));

        assertError(response, 403, -32600);
        assertThat(response.headers().firstValue("Mcp-Session-Id")).isEmpty();
        assertThat(http.sessionCount()).isZero();
    }

    @Test
    void aForeignHostIs403() throws Exception {
        Map<String, String> headers = new HashMap<>(jsonHeaders());
        headers.put("Host", "evil.example.com:" + peer.endpoint().getPort());
        assertError(peer.send(peer.post(INIT, headers)), 403, -32600);
    }

    @Test
    void theRefOfARefusalBeforeAnySessionResolvesInTheServersIncidents() throws Exception {
        Map<String, String> headers = new HashMap<>(jsonHeaders());
        headers.put("Host", "evil.example.com:" + peer.endpoint().getPort());
        HttpResponse<String> response = peer.send(peer.post(INIT, headers));
        String ref = dev.warden.core.json.Json.mapper().readTree(response.body()).at("/error/data/ref").asString();
        assertThat(incidents).singleElement().satisfies(incident -> {
            assertThat(incident.ref().value()).isEqualTo(ref);
            assertThat(incident.code()).isEqualTo(dev.warden.core.error.ErrorCode.PERMISSION_DENIED);
        });
    }

    @Test
    void aLocalhostOriginIsAccepted() throws Exception {
        Map<String, String> headers = new HashMap<>(jsonHeaders());
        headers.put("Origin", "http://localhost:" + peer.endpoint().getPort());
        assertThat(peer.send(peer.post(INIT, headers)).statusCode()).isEqualTo(200);
    }

    @Test
    void anOriginOnAnotherPortOfLocalhostIs403() throws Exception {
        Map<String, String> headers = new HashMap<>(jsonHeaders());
        headers.put("Origin", "http://localhost:" + (peer.endpoint().getPort() == 3000 ? 3001 : 3000));
        HttpResponse<String> response = peer.send(peer.post(INIT, headers));

        assertError(response, 403, -32600);
        assertThat(http.sessionCount()).isZero();
    }

    @Test
    void theServersOwnOriginUnderAnotherLoopbackNameIsAccepted() throws Exception {
        Map<String, String> headers = new HashMap<>(jsonHeaders());
        headers.put("Origin", "http://127.0.0.1:" + peer.endpoint().getPort());
        headers.put("Host", "localhost:" + peer.endpoint().getPort());
        assertThat(peer.send(peer.post(INIT, headers)).statusCode()).isEqualTo(200);
    }

    @Test
    void aConfiguredOriginIsAccepted() throws Exception {
        McpServer server = McpServer.builder("origins", "1").incidents(IncidentSink.all()).build();
        try (McpHttpServer other = McpHttpServer.builder().allowedOrigins(java.util.Set.of("http://localhost:6274"))
                .onSession(server::connect).build().start()) {
            HttpPeer otherPeer = new HttpPeer(other.endpoint());
            Map<String, String> headers = new HashMap<>(jsonHeaders());
            headers.put("Origin", "http://localhost:6274");
            assertThat(otherPeer.send(otherPeer.post(INIT, headers)).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void otherMethodsAre405WithAnAllowHeader() throws Exception {
        HttpResponse<String> response = peer.send(HttpRequest.newBuilder(peer.endpoint())
                .PUT(HttpRequest.BodyPublishers.ofString(INIT)).header("Content-Type", "application/json"));
        assertError(response, 405, -32600);
        assertThat(response.headers().firstValue("Allow")).hasValue("GET, POST, DELETE");
    }

    @Test
    void aSecondGetStreamIs409() throws Exception {
        String session = peer.initialize();
        HttpRequest.Builder get = HttpRequest.newBuilder(peer.endpoint()).GET().header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
        HttpResponse<Stream<String>> first = peer.stream(get);
        assertThat(first.statusCode()).isEqualTo(200);

        assertError(peer.send(get), 409, -32600);
        first.body().close();
    }

    @Test
    void whatComesBeforeTheClientOpensItsGetStreamIsDeliveredWhenItDoes() throws Exception {
        McpServer watched = HttpPeer.watchedServer("test://a");
        try (McpHttpServer other = McpHttpServer.builder().onSession(watched::connect).build().start()) {
            HttpPeer otherPeer = new HttpPeer(other.endpoint());
            String session = otherPeer.initialize();
            otherPeer.send(otherPeer.post("""
                    {"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"test://a"}}""",
                    sessionHeaders(session)));
            watched.resourceUpdated("test://a"); // no GET stream yet: nowhere to send it

            HttpResponse<Stream<String>> get = otherPeer.stream(HttpRequest.newBuilder(other.endpoint()).GET()
                    .header("Accept", "text/event-stream").header("Mcp-Session-Id", session)
                    .header("MCP-Protocol-Version", "2025-11-25"));
            // Read apart, so that a lost message fails the test instead of waiting on the stream for ever.
            JsonNode update = java.util.concurrent.CompletableFuture.supplyAsync(() -> HttpPeer.events(
                            get.body().iterator(), 2)).get(30, java.util.concurrent.TimeUnit.SECONDS).stream()
                    .filter(e -> !e.data().isEmpty()).map(e -> Json.mapper().readTree(e.data())).findFirst().orElseThrow();
            assertThat(update.path("method").asString()).isEqualTo("notifications/resources/updated");
            assertThat(update.at("/params/uri").asString()).isEqualTo("test://a");
            get.body().close();
        }
    }

    @Test
    void responsesNameNoServerSoftwareOrVersion() throws Exception {
        HttpResponse<String> response = peer.send(peer.post(INIT, jsonHeaders()));
        assertThat(response.headers().firstValue("Server")).isEmpty();
        assertThat(response.headers().firstValue("X-Powered-By")).isEmpty();
    }

    @Test
    void logMessagesFromAToolTravelOnItsCallsStream() throws Exception {
        String session = peer.initialize();
        HttpResponse<String> response = peer.send(peer.post(
                "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"chatty\",\"arguments\":{}}}",
                sessionHeaders(session)));

        List<String> methods = HttpPeer.events(response.body()).stream().filter(e -> !e.data().isEmpty())
                .map(e -> Json.mapper().readTree(e.data()).path("method").asString("answer")).toList();
        assertThat(methods).containsExactly("notifications/message", "answer");
    }

    @Test
    void anotherPathIs404() throws Exception {
        HttpResponse<String> response = peer.send(HttpRequest.newBuilder(peer.endpoint().resolve("/other")).GET());
        assertThat(response.statusCode()).isEqualTo(404);
    }

    @Test
    void aClosedStreamIsResumedWithLastEventIdAndDeliversTheAnswer() throws Exception {
        String session = peer.initialize();
        HttpResponse<String> cut = peer.send(peer.post("""
                {"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"reconnect","arguments":{}}}""",
                sessionHeaders(session)));
        cutStreamRead.countDown();
        List<HttpPeer.Event> before = HttpPeer.events(cut.body());
        assertThat(before).allSatisfy(e -> assertThat(e.data()).doesNotContain("after reconnect"));
        String lastId = last(before).id().orElseThrow();

        HttpResponse<String> resumed = peer.send(HttpRequest.newBuilder(peer.endpoint()).GET()
                .header("Accept", "text/event-stream").header("Mcp-Session-Id", session)
                .header("Last-Event-ID", lastId));

        assertThat(resumed.statusCode()).isEqualTo(200);
        JsonNode answer = Json.mapper().readTree(last(HttpPeer.events(resumed.body())).data());
        assertThat(answer.get("id").asInt()).isEqualTo(9);
        assertThat(answer.at("/result/content/0/text").asString()).isEqualTo("after reconnect");
    }

    @Test
    void theGetStreamIsResumableWithLastEventIdToo() throws Exception {
        String session = peer.initialize();
        HttpRequest.Builder get = HttpRequest.newBuilder(peer.endpoint()).GET().header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
        HttpResponse<Stream<String>> first = peer.stream(get);
        String primingId = HttpPeer.events(first.body().iterator(), 1).get(0).id().orElseThrow();
        first.body().close();

        HttpResponse<Stream<String>> resumed = peer.stream(HttpRequest.newBuilder(peer.endpoint()).GET()
                .header("Accept", "text/event-stream").header("Mcp-Session-Id", session)
                .header("Last-Event-ID", primingId));
        assertThat(resumed.statusCode()).isEqualTo(200);
        resumed.body().close();
    }

    @Test
    void anUnknownLastEventIdIs400() throws Exception {
        String session = peer.initialize();
        assertError(peer.send(HttpRequest.newBuilder(peer.endpoint()).GET().header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", session).header("Last-Event-ID", "nope_3")), 400, -32600);
    }

    @Test
    void aResponseStreamThatIsClosedAndNotResumedCancelsItsRequest() throws Exception {
        String session = peer.initialize();
        HttpResponse<Stream<String>> response = peer.stream(peer.post("""
                {"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"slow","arguments":{}}}""",
                sessionHeaders(session)));
        Iterator<String> lines = response.body().iterator();
        HttpPeer.events(lines, 1); // the priming event: the call is under way
        response.body().close();

        // The server notices the dead connection at its next write (a keep-alive every 200 ms here),
        // waits the resume window for a reconnect, then cancels the call: the test lets the window pass.
        assertThat(resumeTimer.passWindowsUntil(RESUME_WINDOW, slowCancelled)).isTrue();
    }

    private static HttpPeer.Event last(List<HttpPeer.Event> events) {
        return events.get(events.size() - 1);
    }

    private static void assertError(HttpResponse<String> response, int status, int code) {
        assertThat(response.statusCode()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                ct -> assertThat(ct).startsWith("application/json"));
        JsonNode body = Json.mapper().readTree(response.body());
        assertThat(body.get("jsonrpc").asString()).isEqualTo("2.0");
        assertThat(body.get("id").isNull()).isTrue();
        assertThat(body.at("/error/code").asInt()).isEqualTo(code);
        assertThat(body.at("/error/message").asString()).isNotBlank();
    }
}
