package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.error.Ref;
import dev.warden.core.incident.FileIncidentStore;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Every answer of an upstream that the client does not get as it was said (its text sanitized or
 * replaced, its structured part or other blocks dropped, an unknown tool's words) is kept whole in
 * the incident behind the ref the client gets: read here from the gateway's file incident store
 * by that ref, as {@code warden incidents show REF} reads it.
 */
class GatewayIncidentOriginalsTest {

    /** Node 22's TypeError for a property of undefined, as a TypeScript SDK server returns it (error.message and stack). */
    private static final String NODE_TRACE = "TypeError: Cannot read properties of undefined (reading 'id')\n"
            + "    at lookupOrder (/srv/shop-mcp/dist/tools/orders.js:42:17)\n"
            + "    at async McpServer.<anonymous> (/srv/shop-mcp/node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js:101:36)";

    @TempDir
    Path dir;
    private FileIncidentStore store;
    private Gateway gateway;
    private McpClient client;

    private void start(Map<String, Function<JsonNode, String>> answers) {
        start(answers, "nothing/refused", "{}");
    }

    private void start(Map<String, Function<JsonNode, String>> answers, String refusedMethod, String refusal) {
        McpServer server = McpServer.builder("shop", "1.0.0").incidents(IncidentSink.all())
                .tool(ToolSpec.builder("lookup").handler(c -> ToolResult.text("never")).build())
                .build();
        Upstream u = Upstream.builder("shop", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return new AnsweringCalls(new RefusingMethod(pair.left(), refusedMethod, refusal), answers,
                    new AtomicInteger());
        }).reconnect(ReconnectPolicy.none()).build();
        store = FileIncidentStore.open(dir);
        gateway = Gateway.builder().upstream(u).incidents(store).build();
        client = McpClient.builder("model", "1").reconnect(ReconnectPolicy.none()).connect(ViaGateway.to(gateway));
    }

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        if (store != null) {
            store.close();
        }
    }

    /** The original the operator reads behind the ref of an isError result the client got. */
    private String originalBehind(JsonNode result) {
        return originalBehind(result.at("/structuredContent/error/ref").asString());
    }

    private String originalBehind(String ref) {
        return store.find(new Ref(ref)).orElseThrow(() -> new AssertionError("no incident for " + ref)).original()
                .orElseThrow(() -> new AssertionError("the incident of " + ref + " keeps no original"));
    }

    @Test
    void aSanitizedToolErrorKeepsItsTraceInTheIncident() {
        start(Map.of("lookup", a -> AnsweringCalls.toolError(NODE_TRACE)));

        JsonNode result = client.callTool("lookup", Json.object().put("order", "ord_123")).raw();

        assertThat(result.toString()).doesNotContain("/srv/shop-mcp");
        assertThat(originalBehind(result)).contains(NODE_TRACE);
    }

    @Test
    void aToolErrorsStructuredContentIsKeptInTheIncident() {
        start(Map.of("lookup", a -> "\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Lookup failed\"}],"
                + "\"structuredContent\":{\"host\":\"orders-db.internal\",\"port\":5432},\"isError\":true}"));

        JsonNode result = client.callTool("lookup", Json.object()).raw();

        assertThat(result.toString()).doesNotContain("orders-db.internal");
        assertThat(originalBehind(result)).contains("Lookup failed", "orders-db.internal", "5432");
    }

    @Test
    void aToolErrorsOtherContentBlocksAreKeptInTheIncident() {
        // A tool that attaches its log to the failure as an embedded resource: the client gets
        // Warden's error alone, so the operator must find the resource behind the ref.
        start(Map.of("lookup", a -> "\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Export failed\"},"
                + "{\"type\":\"resource\",\"resource\":{\"uri\":\"file:///srv/exports/export.log\","
                + "\"mimeType\":\"text/plain\",\"text\":\"ENOENT: no such file or directory, open "
                + "'/srv/exports/q3.csv'\"}}],\"isError\":true}"));

        JsonNode result = client.callTool("lookup", Json.object()).raw();

        assertThat(result.toString()).doesNotContain("q3.csv");
        assertThat(originalBehind(result)).contains("Export failed", "file:///srv/exports/export.log",
                "ENOENT: no such file or directory, open '/srv/exports/q3.csv'");
    }

    @Test
    void aJsonRpcErrorsMessageAndDataAreKeptInTheIncident() {
        // The ash_ai pattern: -32000 "Tool execution failed", the detail in data.
        start(Map.of("lookup", a -> "\"error\":{\"code\":-32000,\"message\":\"Tool execution failed\","
                + "\"data\":{\"exception\":\"** (Postgrex.Error) FATAL 28P01 (invalid_password) password "
                + "authentication failed for user \\\"shop_app\\\"\"}}"));

        JsonNode result = client.callTool("lookup", Json.object()).raw();

        assertThat(result.toString()).doesNotContain("shop_app");
        assertThat(originalBehind(result)).contains("Tool execution failed", "Postgrex.Error", "shop_app");
    }

    @Test
    void anInvalidParamsErrorsOriginalIsKeptInTheIncident() {
        start(Map.of("lookup", a -> "\"error\":{\"code\":-32602,\"message\":\"Invalid arguments for tool lookup: "
                + "order must match /^ord_[0-9]+$/ (validated by /srv/shop-mcp/dist/schema.js)\"}"));

        assertThatThrownBy(() -> client.callTool("lookup", Json.object().put("order", "123")))
                .isInstanceOfSatisfying(PeerErrorException.class, e -> {
                    assertThat(e.error().toString()).doesNotContain("/srv/shop-mcp");
                    assertThat(originalBehind(e.error().data().orElseThrow().path("ref").asString()))
                            .contains("/srv/shop-mcp/dist/schema.js");
                });
    }

    @Test
    void anUnknownToolErrorFromTheUpstreamKeepsItsWordsInTheIncident() {
        // The Python SDK's FastMCP (and older TypeScript servers) answer a tool they lack so.
        start(Map.of("lookup", a -> AnsweringCalls.error(-32602, "Unknown tool: lookup (registry at /srv/shop-mcp/tools)")));

        assertThatThrownBy(() -> client.callTool("lookup", Json.object()))
                .isInstanceOfSatisfying(PeerErrorException.class, e -> {
                    assertThat(e.error().toString()).doesNotContain("/srv/shop-mcp");
                    assertThat(originalBehind(e.error().data().orElseThrow().path("ref").asString()))
                            .contains("Unknown tool: lookup (registry at /srv/shop-mcp/tools)");
                });
    }

    @Test
    void anUnknownToolResultFromTheUpstreamKeepsItsWordsInTheIncident() {
        // The TypeScript SDK 1.2x's McpServer answers a tool it lacks with an isError result so.
        // Whether the client gets it as a result or a protocol error is the classifier's (issue 31,
        // item 4); either way the ref it gets must lead to the upstream's words.
        start(Map.of("lookup", a -> AnsweringCalls.toolError("MCP error -32602: Tool lookup not found")));

        String ref;
        try {
            JsonNode result = client.callTool("lookup", Json.object()).raw();
            ref = result.at("/structuredContent/error/ref").asString();
        } catch (PeerErrorException e) {
            ref = e.error().data().orElseThrow().path("ref").asString();
        }

        assertThat(originalBehind(ref)).contains("MCP error -32602: Tool lookup not found");
    }

    @Test
    void anUpstreamsRefusalToInitializeIsKeptInTheIncident() {
        // The MCP specification's own example of a server refusing the client's version.
        String refusal = "{\"code\":-32602,\"message\":\"Unsupported protocol version\","
                + "\"data\":{\"supported\":[\"2024-11-05\"],\"requested\":\"2025-11-25\"}}";

        assertThatThrownBy(() -> start(Map.of(), "initialize", refusal));

        // The client's connection gives up; the operator finds the incident among the store's newest.
        assertThat(store.list(Instant.EPOCH, Optional.empty(), 10)).anySatisfy(i -> {
            assertThat(i.method()).isEqualTo("initialize");
            assertThat(i.original()).hasValueSatisfying(o -> assertThat(o)
                    .contains("Unsupported protocol version", "2024-11-05"));
        });
    }
}
