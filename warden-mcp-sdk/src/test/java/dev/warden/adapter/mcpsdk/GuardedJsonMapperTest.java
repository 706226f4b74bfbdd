package dev.warden.adapter.mcpsdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.incident.Incident;
import dev.warden.core.json.Json;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The transports' side door: what the SDK writes itself. An exception object becomes Warden's
 * JSON-RPC error, an internal error the SDK made from an exception loses its text and its
 * {@code data} (2.0's cause chain), and everything else is written as the SDK's mapper writes it.
 */
// The records' constructors that 2.0 and 2.1 both have (2.1 deprecates them for builders 2.0 lacks).
@SuppressWarnings("deprecation")
class GuardedJsonMapperTest {

    private final List<Incident> incidents = new CopyOnWriteArrayList<>();
    // A fixed clock: refusals of one kind within the boundary's window share an incident.
    private final WardenGuard guard = WardenGuard.builder().incidents(incidents::add)
            .clock(Clock.fixed(Instant.parse("2026-11-29T06:00:00Z"), ZoneOffset.UTC)).build();
    private final McpJsonMapper base = McpJsonDefaults.getMapper();
    private final McpJsonMapper mapper = guard.jsonMapper(base);

    @Test
    void anExceptionObjectIsWrittenAsWardensErrorWithItsJsonRpcCodeAndARef() throws Exception {
        McpError error = McpError.builder(McpSchema.ErrorCodes.INVALID_REQUEST)
                .message("Invalid message format: Unexpected character at /srv/app/Handler.java:42").build();
        String written = mapper.writeValueAsString(error);
        assertThat(base.writeValueAsString(error)).contains("stackTrace", "/srv/app"); // what the SDK writes
        assertThat(written).startsWith("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,")
                .contains("\"code\":\"VALIDATION_ERROR\"", "\"ref\":\"ref_")
                .doesNotContain("stackTrace", "/srv/app", "Handler");
        assertThat(incidents).singleElement()
                .satisfies(i -> assertThat(i.chain().toString()).contains("/srv/app/Handler.java:42"));
        assertThat(new String(mapper.writeValueAsBytes(new IllegalStateException("db.internal down"))))
                .contains("\"code\":-32603", "INTERNAL_ERROR").doesNotContain("db.internal");
    }

    @Test
    void anInternalErrorTheSdkMadeLosesItsTextAndDataAndGetsARef() throws Exception {
        JSONRPCResponse sdk = JSONRPCResponse.error(7, new JSONRPCResponse.JSONRPCError(-32603,
                "could not connect to db.internal:5432", "RuntimeException: x\n  Caused by: PSQLException: y"));
        String written = mapper.writeValueAsString(sdk);
        assertThat(written).contains("\"id\":7", "\"code\":-32603", "An internal error occurred.",
                "\"code\":\"INTERNAL_ERROR\"", "\"ref\":\"ref_").doesNotContain("db.internal", "Caused by");
        assertThat(incidents).singleElement().satisfies(i -> assertThat(i.original().orElseThrow())
                .contains("db.internal:5432", "Caused by: PSQLException"));
    }

    @Test
    void wardensOwnErrorsResultsAndOtherErrorsAreWrittenAsTheyAre() throws Exception {
        var prompt = guard.wrapOne(new io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification(
                new McpSchema.Prompt("p", null, null, List.of(), null),
                (x, r) -> { throw new IllegalStateException("boom"); }));
        McpError ours;
        try {
            prompt.promptHandler().apply(null, new McpSchema.GetPromptRequest("p", Map.of(), null));
            throw new AssertionError("no error");
        } catch (McpError e) {
            ours = e;
        }
        JSONRPCResponse answer = JSONRPCResponse.error(3, ours.getJsonRpcError());
        assertThat(mapper.writeValueAsString(answer)).isEqualTo(base.writeValueAsString(answer));
        JSONRPCResponse result = JSONRPCResponse.result(5, Map.of("ok", true));
        assertThat(mapper.writeValueAsString(result)).isEqualTo(base.writeValueAsString(result));
        assertThat(incidents).hasSize(1); // the prompt's own
    }

    @Test
    void aTransportWithAJsonLibraryOfItsOwnWritesTheSameValues() throws Exception {
        McpError error = McpError.builder(McpSchema.ErrorCodes.INTERNAL_ERROR).message("Failed to handle request: /srv/app/x").build();
        Object safe = guard.transportValue(error);
        assertThat(base.writeValueAsString(safe))
                .startsWith("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32603,")
                .contains("\"ref\":\"ref_").doesNotContain("/srv/app", "stackTrace");
        JSONRPCResponse result = JSONRPCResponse.result(5, Map.of("ok", true));
        assertThat(guard.transportValue(result)).isSameAs(result);
        assertThat(guard.transportValue("text")).isEqualTo("text");
    }

    @Test
    void onlyASpecificationIsWrapped() {
        var prompt = new io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification(
                new McpSchema.Prompt("p", null, null, List.of(), null), (x, r) -> null);
        assertThat(guard.wrapIfSpecification(prompt)).get().isNotSameAs(prompt);
        assertThat(guard.wrapIfSpecification(List.of(prompt))).isEmpty();
        assertThat(guard.wrapIfSpecification("text")).isEmpty();
    }

    @Test
    void anErrorTheSdkAnsweredItselfIsWardensRefusalWithoutTheCallersInput() throws Exception {
        // java-sdk's McpAsyncServer: the message is a literal, the name the caller sent goes in data.
        JSONRPCResponse unknownTool = JSONRPCResponse.error(4, new JSONRPCResponse.JSONRPCError(-32602,
                "Unknown tool: invalid_tool_name", "Tool not found: no_such_tool_probe"));
        assertThat(mapper.writeValueAsString(unknownTool)).startsWith(
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"error\":{\"code\":-32602,\"message\":\"Unknown tool\","
                        + "\"data\":{\"code\":\"NOT_FOUND\",")
                .contains("\"ref\":\"ref_").doesNotContain("no_such_tool_probe");
        JSONRPCResponse badName = JSONRPCResponse.error(5, new JSONRPCResponse.JSONRPCError(-32602,
                "Invalid prompt name", "/srv/app/prompts/x"));
        assertThat(mapper.writeValueAsString(badName)).contains("\"code\":-32602", "\"message\":\"Invalid params\"",
                "VALIDATION_ERROR").doesNotContain("/srv/app", "prompt name");
        assertThat(incidents).hasSize(2).anySatisfy(i -> assertThat(i.original()).hasValueSatisfying(
                text -> assertThat(text).contains("no_such_tool_probe")));
    }

    @Test
    void anUnknownSessionIsTheCallersNotFoundAsOnWardensOwnServerAndOneIncidentPerKind() throws Exception {
        // java-sdk's streamable HTTP transport: 404 with a -32603 McpError, "Session not found: " + the id.
        String first = mapper.writeValueAsString(McpError.builder(McpSchema.ErrorCodes.INTERNAL_ERROR)
                .message("Session not found: guessed-1").build());
        String second = mapper.writeValueAsString(McpError.builder(McpSchema.ErrorCodes.INTERNAL_ERROR)
                .message("Session not found: guessed-2").build());
        assertThat(first).startsWith("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":"
                + "\"Not found: the session does not exist or has ended; initialize a new one\",\"data\":"
                + "{\"code\":\"NOT_FOUND\",").doesNotContain("guessed");
        var ref = Json.mapper().readTree(first).path("error").path("data").path("ref");
        assertThat(Json.mapper().readTree(second).path("error").path("data").path("ref")).isEqualTo(ref);
        assertThat(incidents).singleElement().satisfies(i -> assertThat(i.code().name()).isEqualTo("NOT_FOUND"));
    }
}
