package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.client.ToolCallResult;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.incident.Incident;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Drop-in fidelity of a tool call's answer: what the upstream said as an {@code isError} result
 * reaches the client as a tool result, never as a JSON-RPC error; and whatever the gateway put in
 * place of the upstream's words, the incident behind the ref keeps the upstream's original.
 */
class UpstreamToolResultFidelityTest {

    /**
     * The official MCP Java SDK (io.modelcontextprotocol.sdk:mcp) answers arguments that fail the
     * tool's input schema with an isError result "Tool (name) input validation failed: " followed
     * by the networknt validator's messages.
     */
    private static final String JAVA_SDK_SCHEMA_FAILURE =
            "Tool (register_user) input validation failed: $: required property 'email' not found";
    /** The TypeScript SDK (1.2x) answers a tool it lacks with an isError result in these words. */
    private static final String TS_SDK_UNKNOWN_TOOL = "MCP error -32602: Tool summarize_probe not found";

    private final List<Incident> incidents = new CopyOnWriteArrayList<>();
    private final McpServer server = McpServer.builder("users", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("register_user").handler(c -> ToolResult.text("never")).build())
            .tool(ToolSpec.builder("summarize").handler(c -> ToolResult.text("never")).build())
            .tool(ToolSpec.builder("lookup").handler(c -> ToolResult.text("never")).build())
            .build();
    private Gateway gateway;
    private McpClient client;

    @BeforeEach
    void start() {
        Upstream u = Upstream.builder("users", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return new AnsweringCalls(pair.left(), Map.of(
                    "register_user", a -> AnsweringCalls.toolError(JAVA_SDK_SCHEMA_FAILURE),
                    "summarize", a -> AnsweringCalls.toolError(TS_SDK_UNKNOWN_TOOL),
                    "lookup", a -> AnsweringCalls.error(-32603, "Unknown tool: lookup_probe")),
                    new AtomicInteger());
        }).reconnect(ReconnectPolicy.none()).build();
        gateway = Gateway.builder().upstream(u).incidents(incidents::add).build();
        client = McpClient.builder("model", "1").protocolVersion(ProtocolVersion.latestSessionBased())
                .connect(ViaGateway.to(gateway));
    }

    @AfterEach
    void stop() {
        client.close();
        gateway.close();
    }

    private Incident incident(String ref) {
        return incidents.stream().filter(i -> i.ref().value().equals(ref)).findFirst().orElseThrow(
                () -> new AssertionError("no incident for " + ref + " among " + incidents));
    }

    private static String refOf(ToolCallResult result) {
        return Json.mapper().readTree(result.text()).at("/error/ref").asString();
    }

    @Test
    void theJavaSdksSchemaFailureResultStaysAToolResult() {
        ToolCallResult result = client.callTool("register_user", Json.object().put("name", "Ada"));

        assertThat(result.isError()).isTrue();
        assertThat(Json.mapper().readTree(result.text()).at("/error/code").asString()).isNotEmpty();
        assertThat(result.text()).doesNotContain("Unknown tool");
    }

    @Test
    void theJavaSdksSchemaFailureKeepsItsOriginalInTheIncident() {
        ToolCallResult result = client.callTool("register_user", Json.object().put("name", "Ada"));

        assertThat(incident(refOf(result)).original()).contains(JAVA_SDK_SCHEMA_FAILURE);
    }

    @Test
    void anUnknownToolSaidInAnIsErrorResultStaysAToolResultWithoutTheName() {
        ToolCallResult result = client.callTool("summarize", Json.object());

        assertThat(result.isError()).isTrue();
        assertThat(Json.mapper().readTree(result.text()).at("/error/code").asString()).isEqualTo("NOT_FOUND");
        assertThat(result.toString()).doesNotContain("summarize_probe");
        assertThat(incident(refOf(result)).original()).contains(TS_SDK_UNKNOWN_TOOL);
    }

    @Test
    void anUnknownToolErrorFromTheUpstreamKeepsItsOriginalInTheIncident() {
        assertThatThrownBy(() -> client.callTool("lookup", Json.object()))
                .isInstanceOfSatisfying(PeerErrorException.class, e -> {
                    assertThat(e.error().code()).isEqualTo(-32602);
                    assertThat(e.error().message()).isEqualTo("Unknown tool");
                    assertThat(incident(e.error().data().orElseThrow().path("ref").asString()).original())
                            .contains("Unknown tool: lookup_probe");
                });
    }
}
