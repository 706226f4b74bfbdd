package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.client.ToolCallResult;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 31: a failure's code is a claim made from evidence. What the client gets for a tool's
 * {@code isError} answer, through the gateway: the code and {@code retryable} follow the
 * server's own words and never the caller's; with no evidence of the server's own dependency
 * failing, the answer is the tool's to this call and not retryable. The texts are what real
 * software said: zod 3.25 and 4.6 and the TypeScript SDK 1.32 (captured by running them, in
 * warden-e2e's node_modules), Node 22's fetch against an unresolvable name and a closed port,
 * and the servers of issue 31 (desktop-commander, playwright-mcp, a SaaS server, mongodb-mcp-server,
 * the official Java SDK).
 */
class GatewayEvidenceCodesTest {

    private final AtomicReference<String> answer = new AtomicReference<>();
    private final McpServer server = McpServer.builder("saas", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("act").handler(c -> ToolResult.text("never")).build())
            .build();
    private Gateway gateway;
    private McpClient client;

    @BeforeEach
    void start() {
        Upstream u = Upstream.builder("saas", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return new AnsweringCalls(pair.left(), Map.of("act", a -> answer.get()), new AtomicInteger());
        }).reconnect(ReconnectPolicy.none()).build();
        gateway = Gateway.builder().upstream(u).build();
        client = McpClient.builder("model", "1").protocolVersion(ProtocolVersion.latestSessionBased())
                .connect(ViaGateway.to(gateway));
    }

    @AfterEach
    void stop() {
        client.close();
        gateway.close();
    }

    /** The Warden error the client got when the tool answered {@code said} as an isError result. */
    private JsonNode callAnswered(String said, ObjectNode arguments) {
        answer.set(AnsweringCalls.toolError(said));
        ToolCallResult result = client.callTool("act", arguments);
        assertThat(result.isError()).as(result.text()).isTrue();
        return Json.mapper().readTree(result.text()).get("error");
    }

    @Test
    void aZodMessageQuotingTheCallersFieldTimeoutMsIsNotATimeout() {
        // zod 3.25: z.object({timeout_ms: z.number()}), issues as "path: message"
        JsonNode error = callAnswered("timeout_ms: Expected number, received string",
                Json.object().put("timeout_ms", "soon"));
        assertThat(error.get("code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(error.get("retryable").asBoolean()).isFalse();
    }

    @Test
    void theTypeScriptSdksSchemaFailureNamingTimeoutMsIsAValidationError() {
        // TypeScript SDK 1.32 with zod 4.6, the tool's input schema {timeout_ms: number}
        JsonNode error = callAnswered("MCP error -32602: Input validation error: Invalid arguments for tool wait: "
                + "Invalid input: expected number, received string at timeout_ms", Json.object().put("timeout_ms", "soon"));
        assertThat(error.get("code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(error.get("retryable").asBoolean()).isFalse();
    }

    @Test
    void theJavaSdksInputValidationFailureAboutATimeoutFieldIsAValidationError() {
        // the official Java SDK's prefix; the message is networknt json-schema-validator 1.5.9's, captured
        JsonNode error = callAnswered("Tool (wait) input validation failed: $.timeout_ms: string found, number expected",
                Json.object().put("timeout_ms", "soon"));
        assertThat(error.get("code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(error.get("retryable").asBoolean()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "Invoices above 5000 USD need approval: pass amount <= 5000",
        "Customer cus_9f2 is blocked",
        "Key \"noSuchKey\" is not configurable via this tool. Allowed keys: currency, terms",
        "No session found for PID 999999",
        "\"#checkout-button\" does not match any elements.",
        "Unrecognized pipeline stage name: '$lookupp'",
        "Tool delete_everything is not available in this session",
    })
    void aRefusalInPlainWordsIsTheToolsAnswerAndNotRetryable(String said) {
        JsonNode error = callAnswered(said, Json.object().put("amount", 7200).put("key", "noSuchKey"));
        assertThat(error.get("code").asString()).isIn("VALIDATION_ERROR", "NOT_FOUND", "PERMISSION_DENIED", "CONFLICT");
        assertThat(error.get("retryable").asBoolean()).isFalse();
    }

    @Test
    void anIsErrorAnswerWithNoEvidenceIsNotAnUpstreamError() {
        JsonNode error = callAnswered("The invoice could not be created.", Json.object().put("amount", 12));
        assertThat(error.get("code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(error.get("retryable").asBoolean()).isFalse();
    }

    @Test
    void aRefusalThrownAsAJsonRpcInternalErrorIsTheToolsAnswerAndNotRetryable() {
        // The TypeScript SDK v1's low-level server turns any error a tool throws into -32603.
        answer.set(AnsweringCalls.error(-32603, "Internal error: customer cus_1 is blocked"));
        ToolCallResult result = client.callTool("act", Json.object().put("customer", "cus_1"));
        JsonNode error = Json.mapper().readTree(result.text()).get("error");
        assertThat(result.isError()).isTrue();
        assertThat(error.get("code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(error.get("retryable").asBoolean()).isFalse();
    }

    @Test
    void theServersOwnApiHostNotResolvingIsAnUpstreamErrorToRetry() {
        // Node 22: fetch('http://api.h83-no-such-host.invalid/v1/invoices'), its message and its cause's
        JsonNode error = callAnswered("fetch failed: getaddrinfo ENOTFOUND api.h83-no-such-host.invalid",
                Json.object().put("customer", "cus_1"));
        assertThat(error.get("code").asString()).isEqualTo("UPSTREAM_ERROR");
        assertThat(error.get("retryable").asBoolean()).isTrue();
    }

    @Test
    void aHostTheCallerSentThatDoesNotResolveIsTheCallersToFix() {
        JsonNode error = callAnswered("fetch failed: getaddrinfo ENOTFOUND api.h83-no-such-host.invalid",
                Json.object().put("url", "http://api.h83-no-such-host.invalid/v1/invoices"));
        assertThat(error.get("code").asString()).isEqualTo("NOT_FOUND");
        assertThat(error.get("retryable").asBoolean()).isFalse();
    }

    @Test
    void aRefusedConnectionIsAnUpstreamErrorToRetry() {
        // Node 22: fetch('http://127.0.0.1:59871/v1/invoices') with nothing listening
        JsonNode error = callAnswered("fetch failed: connect ECONNREFUSED 127.0.0.1:59871",
                Json.object().put("customer", "cus_1"));
        assertThat(error.get("code").asString()).isEqualTo("UPSTREAM_ERROR");
        assertThat(error.get("retryable").asBoolean()).isTrue();
    }

    @Test
    void aLockedResourceReportedByItsApiIsAConflictInWordsAsInStructure() {
        // axios: "Request failed with status code 423"; the same status in a problem-details body
        JsonNode inWords = callAnswered("Request failed with status code 423", Json.object());
        JsonNode inStructure = callAnswered("{\"type\":\"about:blank\",\"title\":\"Locked\",\"status\":423}",
                Json.object());
        assertThat(inWords.get("code").asString()).isEqualTo("CONFLICT");
        assertThat(inStructure.get("code").asString()).isEqualTo("CONFLICT");
    }

    @Test
    void aMethodTheApiDoesNotAllowIsTheSameCodeInWordsAsInStructure() {
        JsonNode inWords = callAnswered("Request failed with status code 405", Json.object());
        JsonNode inStructure = callAnswered(
                "{\"type\":\"about:blank\",\"title\":\"Method Not Allowed\",\"status\":405}", Json.object());
        assertThat(inWords.get("code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(inStructure.get("code").asString()).isEqualTo("VALIDATION_ERROR");
    }

    @Test
    void anApisServerErrorIsAnUpstreamErrorToRetry() {
        JsonNode error = callAnswered("Request failed with status code 503", Json.object());
        assertThat(error.get("code").asString()).isEqualTo("UPSTREAM_ERROR");
        assertThat(error.get("retryable").asBoolean()).isTrue();
    }
}
