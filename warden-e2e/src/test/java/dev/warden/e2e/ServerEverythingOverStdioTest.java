package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.warden.core.error.RequestCancelledException;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Progress;
import dev.warden.core.session.OutgoingRequest;
import dev.warden.core.session.RequestOptions;
import dev.warden.core.session.Session;
import dev.warden.core.transport.ProcessTransport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Warden's session engine and stdio client transport against the official reference server,
 * {@code @modelcontextprotocol/server-everything}, as a real subprocess (groundwork for the client
 * SDK and the gateway).
 */
class ServerEverythingOverStdioTest {

    private final List<String> stderr = new CopyOnWriteArrayList<>();
    private ProcessTransport transport;
    private Session session;

    @BeforeEach
    void connect() throws Exception {
        transport = ProcessTransport.launch(List.of(Processes.NODE, Processes.NODE_DIR.resolve(
                        "node_modules/@modelcontextprotocol/server-everything/dist/index.js").toString(), "stdio"),
                Map.of(), Optional.empty(), stderr::add);
        session = Session.builder(transport).onOtherNotification((method, params) -> { }).build();
        session.start();
        ObjectNode params = Json.object();
        params.put("protocolVersion", "2025-11-25");
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "warden-e2e").put("version", "1");
        JsonNode init = session.request("initialize", params).get(60, TimeUnit.SECONDS);
        assertThat(init.get("protocolVersion").stringValue()).isEqualTo("2025-11-25");
        session.notify("notifications/initialized", Json.object());
    }

    @AfterEach
    void close() {
        session.close();
    }

    private JsonNode call(String tool, ObjectNode arguments) throws Exception {
        ObjectNode params = Json.object();
        params.put("name", tool);
        params.set("arguments", arguments);
        return session.request("tools/call", params).get(60, TimeUnit.SECONDS);
    }

    @Test
    void listsTheReferenceTools() throws Exception {
        JsonNode tools = session.request("tools/list", Json.object()).get(60, TimeUnit.SECONDS).get("tools");
        assertThat(tools.valueStream().map(t -> t.get("name").stringValue()))
                .contains("echo", "get-sum", "trigger-long-running-operation");
    }

    @Test
    void echoes() throws Exception {
        JsonNode result = call("echo", Json.object().put("message", "hi"));
        assertThat(result.get("content").get(0).get("text").stringValue()).isEqualTo("Echo: hi");
    }

    @Test
    void aFailingCallArrivesAsTheToolErrorTheServerSent() throws Exception {
        JsonNode result = call("echo", Json.object());
        assertThat(result.get("isError").asBoolean()).isTrue();
        // What the reference server puts in its error text (its own wording) is left for the gateway's
        // sanitizer: here the engine only carries it.
        assertThat(result.get("content").get(0).get("text").stringValue()).contains("message");
    }

    @Test
    void cancellingALongRunningCallEndsItLocallyAndTheServerKeepsServing() throws Exception {
        CountDownLatch progressed = new CountDownLatch(1);
        ObjectNode params = Json.object();
        params.put("name", "trigger-long-running-operation");
        params.set("arguments", Json.object().put("duration", 30).put("steps", 30));
        OutgoingRequest running = session.request("tools/call", params, RequestOptions.ofDefaults()
                .withTimeout(Duration.ofSeconds(60))
                .withProgress((Progress.Params p) -> progressed.countDown()));
        assertThat(progressed.await(60, TimeUnit.SECONDS)).as("progress arrives").isTrue();
        running.cancel("The user cancelled");
        Throwable failure = catchThrowable(() -> running.get(60, TimeUnit.SECONDS));
        assertThat(failure).isInstanceOf(ExecutionException.class).hasCauseInstanceOf(RequestCancelledException.class);
        assertThat(session.ping(Duration.ofSeconds(60)).get(60, TimeUnit.SECONDS).isObject()).isTrue();
        assertThat(call("get-sum", Json.object().put("a", 2).put("b", 3)).get("content").get(0).get("text")
                .stringValue()).contains("5");
    }

    @Test
    void closingTheSessionEndsTheServerProcess() throws Exception {
        session.close();
        assertThat(transport.exitCode()).isPresent();
        assertThat(stderr).isNotEmpty();
    }
}
