package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.client.McpClient;
import dev.warden.client.ToolCallResult;
import dev.warden.core.json.Json;
import dev.warden.core.session.RequestOptions;
import dev.warden.core.transport.Transport;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Warden client against the reference server {@code @modelcontextprotocol/server-everything}
 * (from npm) over stdio; {@link WardenClientWithServerEverythingOverHttpTest} runs the same over
 * Streamable HTTP.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WardenClientWithServerEverythingTest {

    static final String SERVER = Processes.NODE_DIR
            .resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js").toString();

    McpClient client;

    Supplier<Transport> connector() throws Exception {
        return McpClient.stdio(List.of(Processes.NODE, SERVER, "stdio"));
    }

    @BeforeAll
    void connect() throws Exception {
        client = McpClient.builder("warden-e2e", "1.0.0").requestTimeout(Duration.ofSeconds(60)).connect(connector());
    }

    @AfterAll
    void close() throws Exception {
        if (client != null) {
            client.close();
        }
    }

    @Test
    void negotiatesTheNewestVersionTheServerSpeaks() {
        assertThat(client.protocolVersion().wire()).isEqualTo("2025-11-25");
        assertThat(client.serverInfo().name()).isNotBlank();
    }

    @Test
    void listsTheReferenceTools() {
        assertThat(client.listTools()).extracting(t -> t.name())
                .contains("echo", "get-sum", "trigger-long-running-operation");
    }

    @Test
    void echoes() {
        ObjectNode args = Json.object();
        args.put("message", "hi");
        assertThat(client.callTool("echo", args).text()).isEqualTo("Echo: hi");
    }

    @Test
    void aFailingCallIsAnIsErrorResult() {
        ToolCallResult result = client.callTool("echo", Json.object());
        assertThat(result.isError()).isTrue();
    }

    @Test
    void cancellingALongRunningCallEndsItAndTheServerKeepsServing() throws Exception {
        CountDownLatch progressed = new CountDownLatch(1);
        ObjectNode args = Json.object();
        args.put("duration", 30);
        args.put("steps", 30);
        CompletableFuture<ToolCallResult> running = client.callToolAsync("trigger-long-running-operation", args,
                RequestOptions.ofToolCallDefaults().withProgress(p -> progressed.countDown()));
        assertThat(progressed.await(60, TimeUnit.SECONDS)).as("progress arrives").isTrue();

        running.cancel(true);

        assertThatThrownBy(running::join).isInstanceOf(CancellationException.class);
        client.ping();
        ObjectNode sum = Json.object();
        sum.put("a", 2);
        sum.put("b", 3);
        assertThat(client.callTool("get-sum", sum).text()).contains("5");
    }
}
