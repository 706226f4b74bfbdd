package dev.warden.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.error.ConnectionClosedException;
import dev.warden.core.error.IncompatiblePeerException;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.error.RequestTimeoutException;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.session.RequestOptions;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.ProcessTransport;
import dev.warden.core.transport.Transport;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** The client against a real Warden server in the same JVM (over an in-memory pipe). */
class McpClientTest {

    private final CountDownLatch slowStarted = new CountDownLatch(1);
    private final CountDownLatch slowCancelled = new CountDownLatch(1);
    /** What the slow tool waits for: only the end of the test (a call not cancelled answers "late" after 30 s). */
    private final CountDownLatch slowReleased = new CountDownLatch(1);
    private final List<McpClient> clients = new ArrayList<>();

    private McpServer server() {
        return McpServer.builder("client-test", "1.0.0")
                .incidents(IncidentSink.all())
                .tool(ToolSpec.builder("echo").inputSchema(
                                "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}")
                        .handler(call -> ToolResult.text(call.arguments().path("text").asString(""))).build())
                .tool(ToolSpec.builder("refuse").handler(call -> {
                    throw new dev.warden.core.error.NotFoundFailure("No such order");
                }).build())
                .tool(ToolSpec.builder("ticker").inputSchema(
                                "{\"type\":\"object\",\"properties\":{\"ticks\":{\"type\":\"integer\"}}}")
                        .handler(call -> {
                            int ticks = call.arguments().path("ticks").asInt(1);
                            for (int i = 1; i <= ticks; i++) {
                                // Work that takes real time, not an order provoked: these tests check the
                                // client's timeouts, which run on real time, end to end (the same rules on a
                                // driven clock: core's SessionOutgoingTest).
                                Thread.sleep(100);
                                call.context().progress(i, ticks, null);
                            }
                            return ToolResult.text("ticked " + ticks);
                        }).build())
                .tool(ToolSpec.builder("slow").handler(call -> {
                    slowStarted.countDown();
                    try {
                        slowReleased.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        slowCancelled.countDown();
                        throw e;
                    }
                    return ToolResult.text("late");
                }).build())
                .tool(ToolSpec.builder("shaped")
                        .outputSchema("{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}},"
                                + "\"required\":[\"n\"]}")
                        .handler(call -> {
                            ObjectNode out = Json.object();
                            out.put("n", 3);
                            return ToolResult.structured(out);
                        }).build())
                .tool(ToolSpec.builder("ask").handler(call -> {
                    ObjectNode answer = call.context().requestClient("sampling/createMessage", Json.object());
                    return ToolResult.text("model said " + answer.path("content").path("text").asString());
                }).build())
                .build();
    }

    private Supplier<Transport> inMemory(McpServer server) {
        return () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return pair.left();
        };
    }

    private McpClient connect(McpClient.Builder builder, Supplier<Transport> connector) {
        McpClient client = builder.connect(connector);
        clients.add(client);
        return client;
    }

    private McpClient client() {
        return connect(McpClient.builder("test", "1").requestTimeout(Duration.ofSeconds(10)), inMemory(server()));
    }

    @AfterEach
    void close() {
        slowReleased.countDown();
        clients.forEach(McpClient::close);
    }

    @Test
    void aServerThatSpeaksTheNewestVersionIsUsedStatelessly() {
        McpClient client = client();
        assertThat(client.protocolVersion().wire()).isEqualTo("2026-07-28");
        assertThat(client.serverInfo().name()).isEqualTo("client-test");
        assertThat(client.serverCapabilities().has("tools")).isTrue();
    }

    @Test
    void initializeNegotiatesASessionBasedVersionWhenThatIsTheNewestAskedFor() {
        McpClient client = connect(McpClient.builder("test", "1").protocolVersion(
                dev.warden.core.mcp.ProtocolVersion.V2025_11_25), inMemory(server()));
        assertThat(client.protocolVersion().wire()).isEqualTo("2025-11-25");
        assertThat(client.serverInfo().name()).isEqualTo("client-test");
    }

    @Test
    void aServerThatDoesNotKnowDiscoverIsInitialized() {
        Supplier<Transport> old = FakeServer.connector((method, params) -> {
            if (method.equals("server/discover")) {
                throw new IllegalStateException("unknown method");
            }
            return Json.object();
        }, "2025-06-18");
        assertThat(connect(McpClient.builder("test", "1"), old).protocolVersion().wire()).isEqualTo("2025-06-18");
    }

    @Test
    void aToolCallReturnsItsContent() {
        ObjectNode args = Json.object();
        args.put("text", "hello");
        assertThat(client().callTool("echo", args).text()).isEqualTo("hello");
    }

    @Test
    void aToolFailureIsAnIsErrorResultNotAnException() {
        ToolCallResult result = client().callTool("refuse", Json.object());
        assertThat(result.isError()).isTrue();
        assertThat(result.text()).contains("NOT_FOUND");
    }

    @Test
    void anUnknownToolIsThePeersInvalidParamsError() {
        assertThatThrownBy(() -> client().callTool("no_such_tool", Json.object()))
                .isInstanceOfSatisfying(PeerErrorException.class,
                        e -> assertThat(e.error().code()).isEqualTo(JsonRpcError.INVALID_PARAMS));
    }

    @Test
    void aTimeoutIsALocalFailureAndTheServerIsToldToStop() throws Exception {
        McpClient client = client();
        assertThatThrownBy(() -> client.callTool("slow", Json.object(),
                RequestOptions.ofToolCallDefaults().withTimeout(Duration.ofMillis(300))))
                .isInstanceOf(RequestTimeoutException.class);
        assertThat(slowCancelled.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void progressResetsTheIdleTimeout() {
        ObjectNode args = Json.object();
        args.put("ticks", 6); // 600 ms in all, a tick every 100 ms
        ToolCallResult result = client().callTool("ticker", args,
                RequestOptions.ofToolCallDefaults().withTimeout(Duration.ofMillis(400)));
        assertThat(result.text()).isEqualTo("ticked 6");
    }

    @Test
    void theMaximumTotalIsNotExtendedByProgress() {
        ObjectNode args = Json.object();
        args.put("ticks", 20);
        assertThatThrownBy(() -> client().callTool("ticker", args, RequestOptions.ofToolCallDefaults()
                .withTimeout(Duration.ofMillis(400)).withMaxTotalTimeout(Duration.ofMillis(700))))
                .isInstanceOf(RequestTimeoutException.class).hasMessageContaining("maximum total");
    }

    @Test
    void progressReachesTheCallersListenerInOrder() {
        List<Double> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        ObjectNode args = Json.object();
        args.put("ticks", 3);
        client().callTool("ticker", args, RequestOptions.ofToolCallDefaults().withProgress(p -> seen.add(p.progress())));
        assertThat(seen).containsExactly(1.0, 2.0, 3.0);
    }

    @Test
    void cancellingTheFutureCancelsTheCallOnTheServer() throws Exception {
        CompletableFuture<ToolCallResult> call = client().callToolAsync("slow", Json.object(), RequestOptions.ofToolCallDefaults());
        slowStarted.await(10, TimeUnit.SECONDS); // the call reached the tool
        call.cancel(true);

        assertThatThrownBy(call::join).isInstanceOf(CancellationException.class);
        assertThat(slowCancelled.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void structuredContentIsCheckedAgainstTheOutputSchema() {
        ToolCallResult result = client().callTool("shaped", Json.object());
        assertThat(result.structuredContent()).hasValueSatisfying(s -> assertThat(s.get("n").asInt()).isEqualTo(3));
    }

    @Test
    void structuredContentThatBreaksTheOutputSchemaIsRefusedLocally() {
        // A server that lies about its output: answers "shaped" with the wrong shape.
        Supplier<Transport> liar = FakeServer.connector((method, params) -> switch (method) {
            case "tools/list" -> Json.mapper().readTree("""
                    {"tools":[{"name":"shaped","inputSchema":{"type":"object"},
                     "outputSchema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}}]}""");
            case "tools/call" -> Json.mapper().readTree("""
                    {"content":[{"type":"text","text":"{}"}],"structuredContent":{"n":"three"}}""");
            default -> Json.object();
        }, "2025-11-25");
        McpClient client = connect(McpClient.builder("test", "1"), liar);

        assertThatThrownBy(() -> client.callTool("shaped", Json.object()))
                .isInstanceOf(IncompatiblePeerException.class).hasMessageContaining("/n");
    }

    @Test
    void anIsErrorResultIsNotCheckedAgainstTheOutputSchema() {
        Supplier<Transport> server = FakeServer.connector((method, params) -> switch (method) {
            case "tools/list" -> Json.mapper().readTree("""
                    {"tools":[{"name":"shaped","inputSchema":{"type":"object"},
                     "outputSchema":{"type":"object","required":["n"]}}]}""");
            case "tools/call" -> Json.mapper().readTree("""
                    {"content":[{"type":"text","text":"quota exceeded"}],"isError":true}""");
            default -> Json.object();
        }, "2025-11-25");
        ToolCallResult result = connect(McpClient.builder("test", "1"), server).callTool("shaped", Json.object());
        assertThat(result.isError()).isTrue();
    }

    @Test
    void aServerSpeakingAnUnknownVersionIsRefused() {
        Supplier<Transport> server = FakeServer.connector((method, params) -> Json.object(), "1999-01-01");
        assertThatThrownBy(() -> McpClient.builder("test", "1").connect(server))
                .isInstanceOf(IncompatiblePeerException.class).hasMessageContaining("version");
    }

    @Test
    void callingAToolOfAServerWithoutToolsIsRefusedLocally() {
        Supplier<Transport> server = FakeServer.connector((method, params) -> Json.object(), "2025-11-25",
                Json.object());
        McpClient client = connect(McpClient.builder("test", "1"), server);
        assertThatThrownBy(() -> client.callTool("x", Json.object())).isInstanceOf(IncompatiblePeerException.class);
    }

    @Test
    void theServersSamplingRequestIsAnsweredByTheClientsHandler() {
        McpClient client = connect(McpClient.builder("test", "1").onSampling(params -> {
            ObjectNode result = Json.object();
            result.put("role", "assistant");
            result.putObject("content").put("type", "text").put("text", "forty-two");
            result.put("model", "test-model");
            return result;
        }), inMemory(server()));
        assertThat(client.callTool("ask", Json.object()).text()).isEqualTo("model said forty-two");
    }

    @Test
    void aConnectionThatFailsIsRetriedWithBackoffUntilItWorks() {
        AtomicInteger attempts = new AtomicInteger();
        McpServer server = server();
        Supplier<Transport> flaky = () -> {
            if (attempts.incrementAndGet() < 3) {
                throw new IllegalStateException("connection refused");
            }
            return inMemory(server).get();
        };
        McpClient client = connect(McpClient.builder("test", "1").pause(waited -> { }).reconnect(
                new ReconnectPolicy(3, Duration.ofMillis(10), Duration.ofMillis(50), 0.2)), flaky);

        assertThat(attempts.get()).isEqualTo(3);
        assertThat(client.callTool("echo", Json.object()).isError()).isFalse();
    }

    private static Supplier<Transport> counting(AtomicInteger launches, List<String> command) {
        return () -> {
            launches.incrementAndGet();
            return ProcessTransport.launch(command, Map.of(), Optional.empty(), line -> { });
        };
    }

    @Test
    void aServerProcessThatExitsBeforeAnsweringFailsTheFirstConnectionWithoutRetries() {
        AtomicInteger launches = new AtomicInteger();

        assertThatThrownBy(() -> McpClient.builder("test", "1").connect(counting(launches,
                List.of("sh", "-c", "echo 'Error: no such directory' >&2; exit 1"))))
                .isInstanceOf(ConnectionClosedException.class)
                .hasMessage("The server process exited with code 1 before it answered");
        assertThat(launches).hasValue(1);
    }

    @Test
    void aProgramThatCannotBeStartedFailsTheFirstConnectionWithoutRetries() {
        AtomicInteger launches = new AtomicInteger();

        assertThatThrownBy(() -> McpClient.builder("test", "1").connect(counting(launches,
                List.of("/nonexistent/mcp-server"))))
                .isInstanceOf(ConnectionClosedException.class)
                .hasMessageStartingWith("The server could not be started (cannot start /nonexistent/mcp-server");
        assertThat(launches).hasValue(1);
    }

    @Test
    void aServerThatRanBeforeIsTriedAgainWhenItsRestartExitsAtOnce() throws Exception {
        McpServer server = server();
        List<Transport> made = new ArrayList<>();
        CountDownLatch gone = new CountDownLatch(1);
        McpClient client = connect(McpClient.builder("test", "1").pause(waited -> { }).reconnect(
                new ReconnectPolicy(3, Duration.ofMillis(10), Duration.ofMillis(50), 0.2)), () -> {
                    // the first and third connections work; the second, a restart, dies at once
                    Transport t = made.size() == 1
                            ? ProcessTransport.launch(List.of("sh", "-c", "exit 1"), Map.of(), Optional.empty(),
                                    line -> { })
                            : made.isEmpty() ? watched(inMemory(server).get(), gone) : inMemory(server).get();
                    made.add(t);
                    return t;
                });
        made.get(0).close(); // the server went away
        gone.await(10, TimeUnit.SECONDS); // the client saw the connection end

        assertThat(client.callTool("echo", Json.object()).isError()).isFalse();
        assertThat(made).hasSize(3);
    }

    @Test
    void aDeadConnectionIsReplacedOnTheNextCall() throws Exception {
        McpServer server = server();
        List<Transport> made = new ArrayList<>();
        CountDownLatch gone = new CountDownLatch(1);
        McpClient client = connect(McpClient.builder("test", "1"), () -> {
            Transport t = made.isEmpty() ? watched(inMemory(server).get(), gone) : inMemory(server).get();
            made.add(t);
            return t;
        });
        made.get(0).close(); // the server went away
        gone.await(10, TimeUnit.SECONDS); // the client saw the connection end

        assertThat(client.callTool("echo", Json.object()).isError()).isFalse();
        assertThat(made).hasSize(2);
    }

    @Test
    void changingTheBuilderAfterConnectDoesNotChangeAReconnect() throws Exception {
        McpServer server = server();
        List<Transport> made = new ArrayList<>();
        McpClient.Builder builder = McpClient.builder("test", "1")
                .protocolVersion(dev.warden.core.mcp.ProtocolVersion.V2025_11_25);
        CountDownLatch gone = new CountDownLatch(1);
        McpClient client = connect(builder, () -> {
            Transport t = made.isEmpty() ? watched(inMemory(server).get(), gone) : inMemory(server).get();
            made.add(t);
            return t;
        });
        builder.protocolVersion(dev.warden.core.mcp.ProtocolVersion.latest()).reconnect(ReconnectPolicy.none());

        made.get(0).close(); // the server went away
        gone.await(10, TimeUnit.SECONDS); // the client saw the connection end

        assertThat(client.callTool("echo", Json.object()).isError()).isFalse();
        assertThat(made).hasSize(2);
        assertThat(client.protocolVersion().wire()).isEqualTo("2025-11-25");
    }

    @Test
    void requestIfConnectedSendsOnlyOnASessionThatIsUpAndNeverReconnects() throws Exception {
        McpServer server = server();
        List<Transport> made = new ArrayList<>();
        CountDownLatch gone = new CountDownLatch(1);
        McpClient client = connect(McpClient.builder("test", "1").protocolVersion(
                dev.warden.core.mcp.ProtocolVersion.V2025_11_25), () -> {
                    Transport t = made.isEmpty() ? watched(inMemory(server).get(), gone) : inMemory(server).get();
                    made.add(t);
                    return t;
                });
        RequestOptions options = RequestOptions.ofDefaults().withTimeout(Duration.ofSeconds(10));
        ObjectNode echo = Json.object().put("name", "echo");
        echo.putObject("arguments");
        assertThat(client.requestIfConnected("tools/call", echo, options).orElseThrow().get().path("isError")
                .asBoolean(false)).isFalse();

        made.get(0).close(); // the server went away
        gone.await(10, TimeUnit.SECONDS); // the client saw the connection end
        assertThat(client.requestIfConnected("tools/call", echo, options)).isEmpty();
        assertThat(made).as("no reconnection").hasSize(1);

        McpClient stateless = client();
        assertThat(stateless.requestIfConnected("tools/call", echo, options)).as("a stateless connection").isEmpty();
    }

    /** {@code transport}, counting {@code closed} down once its listener (the client's session) has seen it close. */
    private static Transport watched(Transport transport, CountDownLatch closed) {
        return new Transport() {
            @Override
            public void start(Listener listener) {
                transport.start(new Listener() {
                    @Override
                    public void onFrame(byte[] frame) {
                        listener.onFrame(frame);
                    }

                    @Override
                    public void onFrameError(dev.warden.core.error.ProtocolException refusal) {
                        listener.onFrameError(refusal);
                    }

                    @Override
                    public void onClose() {
                        listener.onClose();
                        closed.countDown();
                    }
                });
            }

            @Override
            public void send(String frame) {
                transport.send(frame);
            }

            @Override
            public void close() {
                transport.close();
            }
        };
    }

    @Test
    void backoffGrowsAndStaysWithinItsJitter() {
        ReconnectPolicy policy = new ReconnectPolicy(5, Duration.ofMillis(100), Duration.ofMillis(1000), 0.2);
        for (int i = 0; i < 50; i++) {
            assertThat(policy.delay(1).toMillis()).isBetween(80L, 120L);
            assertThat(policy.delay(3).toMillis()).isBetween(320L, 480L);
            assertThat(policy.delay(10).toMillis()).isBetween(800L, 1200L);
        }
    }

    @Test
    void aBadPolicyIsRefusedNamingTheValue() {
        assertThatThrownBy(() -> new ReconnectPolicy(-1, Duration.ZERO, Duration.ZERO, 0))
                .hasMessageContaining("maxAttempts").hasMessageContaining("-1");
        assertThatThrownBy(() -> new ReconnectPolicy(1, Duration.ZERO, Duration.ZERO, 2))
                .hasMessageContaining("jitter");
    }
}
