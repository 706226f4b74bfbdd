package dev.warden.adapter.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.adapter.mcpsdk.WardenGuard;
import dev.warden.core.incident.Incident;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The module in a plain JsonMapper, as Spring MVC and Spring AI's transports use theirs: an
 * {@code McpError} body and the SDK's own -32603 answer become Warden's error; Warden's own errors,
 * other errors and results are written as Jackson writes them.
 */
class TransportErrorModuleTest {

    private final List<Incident> incidents = new CopyOnWriteArrayList<>();
    private final WardenGuard guard = WardenGuard.builder().incidents(incidents::add).build();
    private final JsonMapper plain = JsonMapper.builder().build();
    private final JsonMapper guarded = (JsonMapper) new JsonMapperBeans(() -> guard)
            .postProcessAfterInitialization(plain, "mcpServerJsonMapper");

    @Test
    void anExceptionBodyIsWardensErrorWithItsJsonRpcCode() {
        McpError error = McpError.builder(McpSchema.ErrorCodes.INVALID_REQUEST)
                .message("Invalid message format at /srv/app/Handler.java:42").build();
        assertThat(plain.writeValueAsString(error)).contains("stackTrace", "/srv/app");
        assertThat(guarded.writeValueAsString(error))
                .startsWith("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,")
                .contains("\"code\":\"VALIDATION_ERROR\"", "\"ref\":\"ref_").doesNotContain("stackTrace", "/srv/app");
        assertThat(incidents).hasSize(1);
    }

    @Test
    void theSdksOwnInternalErrorLosesItsTextAndData() {
        JSONRPCResponse sdk = new JSONRPCResponse(McpSchema.JSONRPC_VERSION, 7, null,
                new JSONRPCResponse.JSONRPCError(-32603, "could not connect to db.internal:5432", "Caused by: x"));
        assertThat(guarded.writeValueAsString(sdk))
                .contains("\"id\":7", "An internal error occurred.", "\"ref\":\"ref_")
                .doesNotContain("db.internal", "Caused by");
        assertThat(incidents).singleElement()
                .satisfies(i -> assertThat(i.original().orElseThrow()).contains("db.internal:5432"));
    }

    @Test
    void everythingButAnErrorIsWrittenAsJacksonWritesIt() {
        JSONRPCResponse unknownTool = new JSONRPCResponse(McpSchema.JSONRPC_VERSION, 4, null,
                new JSONRPCResponse.JSONRPCError(-32602, "Unknown tool: x", null));
        JSONRPCResponse result = new JSONRPCResponse(McpSchema.JSONRPC_VERSION, 5, Map.of("ok", true), null);
        for (Object value : new Object[] {result, Map.of("a", 1), "text"}) {
            assertThat(guarded.writeValueAsString(value)).isEqualTo(plain.writeValueAsString(value));
        }
        assertThat(new JsonMapperBeans(() -> guard).postProcessAfterInitialization(guarded, "again"))
                .isSameAs(guarded);
        assertThat(incidents).isEmpty();
        // An error the SDK answered itself is a refusal Warden renders (warden-mcp-sdk's SdkRefusals), with a ref.
        assertThat(guarded.writeValueAsString(unknownTool)).startsWith("{\"jsonrpc\":\"2.0\",\"id\":4,\"error\":{\"code\":-32602,")
                .contains("\"ref\":\"ref_").doesNotContain("Unknown tool: x");
        assertThat(incidents).hasSize(1);
    }
}
