package dev.warden.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.session.RequestOptions;
import dev.warden.http.server.McpHttpServer;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** The client against a Warden server over Streamable HTTP, in each kind of version. */
class McpClientOverHttpTest {

    private final CountDownLatch slowStarted = new CountDownLatch(1);
    private final CountDownLatch slowCancelled = new CountDownLatch(1);
    /** What the slow tool waits for: only the end of the test (a call not cancelled answers "late" after 30 s). */
    private final CountDownLatch slowReleased = new CountDownLatch(1);
    private McpHttpServer http;

    @BeforeEach
    void start() throws Exception {
        McpServer server = McpServer.builder("http-client-test", "1.0.0")
                .incidents(IncidentSink.all())
                .tool(ToolSpec.builder("echo").inputSchema(
                                "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}")
                        .handler(call -> ToolResult.text(call.arguments().path("text").asString(""))).build())
                .tool(ToolSpec.builder("greet").handler(call -> {
                    ObjectNode ask = Json.object();
                    ask.put("message", "name");
                    ObjectNode name = call.context().input("user_name", "elicitation/create", ask);
                    ObjectNode ask2 = Json.object();
                    ask2.put("message", "color");
                    ObjectNode color = call.context().input("color", "elicitation/create", ask2);
                    return ToolResult.text(name.at("/content/value").asString() + " likes "
                            + color.at("/content/value").asString());
                }).build())
                .tool(ToolSpec.builder("route").inputSchema("""
                                {"type":"object","properties":{
                                  "region":{"type":"string","x-mcp-header":"Region"},
                                  "priority":{"type":"integer","x-mcp-header":"Priority"}}}""")
                        .handler(call -> ToolResult.text("routed to " + call.arguments().path("region").asString())).build())
                .tool(ToolSpec.builder("huge").handler(call -> ToolResult.text("x".repeat(5 * 1024 * 1024))).build())
                .tool(ToolSpec.builder("slow").handler(call -> {
                    call.context().progress(1, 2, "started");
                    slowStarted.countDown();
                    try {
                        slowReleased.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        slowCancelled.countDown();
                        throw e;
                    }
                    return ToolResult.text("late");
                }).build())
                .build();
        // Frequent keep-alives: a dropped connection is noticed at the server's next write.
        http = McpHttpServer.builder().keepAlive(java.time.Duration.ofMillis(200)).onSession(server::connect)
                .build().start();
    }

    @AfterEach
    void stop() {
        slowReleased.countDown();
        http.close();
    }

    private static ObjectNode text(String value) {
        ObjectNode args = Json.object();
        args.put("text", value);
        return args;
    }

    @Test
    void theNewestVersionIsUsedStatelesslyWhenTheServerSpeaksIt() {
        try (McpClient client = McpClient.builder("t", "1").connect(McpClient.http(http.endpoint()))) {
            assertThat(client.protocolVersion()).isEqualTo(ProtocolVersion.V2026_07_28);
            assertThat(client.callTool("echo", text("stateless")).text()).isEqualTo("stateless");
            assertThat(http.sessionCount()).as("no session in a stateless version").isZero();
        }
    }

    @Test
    void annotatedArgumentsAreMirroredIntoHeadersSoTheServerAcceptsTheCall() {
        // The server refuses (-32020) a call whose Mcp-Param-* headers are missing or differ.
        try (McpClient client = McpClient.builder("t", "1").connect(McpClient.http(http.endpoint()))) {
            ObjectNode args = Json.object();
            args.put("region", " Région 1 ");
            args.put("priority", 3);
            assertThat(client.callTool("route", args).text()).isEqualTo("routed to  Région 1 ");
        }
    }

    @Test
    void anAnswerLargerThanTheClientAcceptsFailsTheCallAtOnceAndTheConnectionGoesOn() {
        // A client that accepts 4 MiB (the default is 64 MiB) and an answer of 5.
        try (McpClient client = McpClient.builder("t", "1").requestTimeout(java.time.Duration.ofSeconds(60))
                .protocolVersion(ProtocolVersion.V2025_11_25).connect(() -> dev.warden.client.http.StreamableHttpTransport
                        .of(http.endpoint(), java.util.Map.of(), java.util.Optional.empty(), 4 * 1024 * 1024))) {
            assertThatThrownBy(() -> client.callTool("huge", Json.object()))
                    .isInstanceOf(dev.warden.core.error.MessageTooLargeException.class);
            assertThat(client.callTool("echo", text("after")).text()).isEqualTo("after");
        }
    }

    private static ObjectNode answer(ObjectNode params) {
        ObjectNode result = Json.object();
        result.put("action", "accept");
        result.putObject("content").put("value", params.path("message").asString().equals("name") ? "Ada" : "blue");
        return result;
    }

    @Test
    void inputTheServerAsksForIsGivenRoundByRoundInTheStatelessVersion() {
        java.util.List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (McpClient client = McpClient.builder("t", "1").onElicitation(params -> {
            asked.add(params.path("message").asString());
            return answer(params);
        }).connect(McpClient.http(http.endpoint()))) {
            assertThat(client.protocolVersion()).isEqualTo(ProtocolVersion.V2026_07_28);
            assertThat(client.callTool("greet", Json.object()).text()).isEqualTo("Ada likes blue");
            assertThat(asked).containsExactly("name", "color");
        }
    }

    @Test
    void theSameToolAsksBySendingRequestsInASessionVersion() {
        try (McpClient client = McpClient.builder("t", "1").protocolVersion(ProtocolVersion.V2025_11_25)
                .onElicitation(McpClientOverHttpTest::answer).connect(McpClient.http(http.endpoint()))) {
            assertThat(client.callTool("greet", Json.object()).text()).isEqualTo("Ada likes blue");
        }
    }

    @Test
    void anOlderVersionAskedForIsNegotiatedWithASession() {
        try (McpClient client = McpClient.builder("t", "1").protocolVersion(ProtocolVersion.V2025_06_18)
                .connect(McpClient.http(http.endpoint()))) {
            assertThat(client.protocolVersion()).isEqualTo(ProtocolVersion.V2025_06_18);
            assertThat(client.callTool("echo", text("with session")).text()).isEqualTo("with session");
            assertThat(http.sessionCount()).isEqualTo(1);
        }
    }

    @Test
    void cancellingAStatelessCallClosesItsStreamAndTheServerStops() throws Exception {
        try (McpClient client = McpClient.builder("t", "1").connect(McpClient.http(http.endpoint()))) {
            CompletableFuture<ToolCallResult> call = client.callToolAsync("slow", Json.object(),
                    RequestOptions.ofToolCallDefaults().withProgress(p -> { }));
            assertThat(slowStarted.await(20, TimeUnit.SECONDS)).isTrue();
            call.cancel(true);
            assertThatThrownBy(call::join).isInstanceOf(CancellationException.class);
            assertThat(slowCancelled.await(20, TimeUnit.SECONDS)).as("the server saw the stream close").isTrue();
        }
    }

    @Test
    void aSessionTheServerForgotIsReplacedAndTheCallRetriedOnce() throws Exception {
        try (McpClient client = McpClient.builder("t", "1").protocolVersion(ProtocolVersion.V2025_11_25)
                .connect(McpClient.http(http.endpoint()))) {
            assertThat(client.callTool("echo", text("one")).text()).isEqualTo("one");
            endEverySession();
            assertThat(client.callTool("echo", text("two")).text()).isEqualTo("two");
        }
    }

    /** What a restarted server does to its clients: every session id it handed out is unknown now. */
    private void endEverySession() throws Exception {
        URI endpoint = http.endpoint();
        http.close();
        http = McpHttpServer.builder().port(endpoint.getPort()).onSession(McpServer.builder("again", "1")
                .incidents(IncidentSink.all())
                .tool(ToolSpec.builder("echo").handler(call -> ToolResult.text(call.arguments().path("text")
                        .asString(""))).build()).build()::connect).build().start();
        HttpResponse<Void> probe = HttpClient.newHttpClient().send(HttpRequest.newBuilder(endpoint)
                .DELETE().header("Mcp-Session-Id", "x").build(), HttpResponse.BodyHandlers.discarding());
        assertThat(probe.statusCode()).isEqualTo(404);
    }
}
