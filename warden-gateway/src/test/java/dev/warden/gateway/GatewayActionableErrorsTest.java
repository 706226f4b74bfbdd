package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.client.ToolCallResult;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What the model needs to fix its call survives the gateway, whatever shape the server put it in:
 * issue 14's case, a JSON:API {@code errors[]} (as ash_ai sends it: -32000 "Tool execution failed"
 * with the detail in {@code data}), the same object as a JSON string in {@code data}, and the same
 * object encoded twice in an {@code isError} text, each arrives as an {@code isError}
 * VALIDATION_ERROR whose violations, in the text block too, hold the pointer and the message.
 */
class GatewayActionableErrorsTest {

    private static final String JSON_API = """
            {"errors":[{"status":"422","code":"invalid_attribute","title":"Invalid attribute",
             "detail":"must be a valid email","source":{"pointer":"/data/attributes/email"}}]}""";

    private final McpServer server = McpServer.builder("crm", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("in_data").handler(c -> ToolResult.text("never")).build())
            .tool(ToolSpec.builder("string_data").handler(c -> ToolResult.text("never")).build())
            .tool(ToolSpec.builder("double_text").handler(c -> ToolResult.text("never")).build())
            .tool(ToolSpec.builder("stack_in_data").handler(c -> ToolResult.text("never")).build())
            .build();
    private Gateway gateway;
    private McpClient client;

    private static String legacyError(String data) {
        return "\"error\":{\"code\":-32000,\"message\":\"Tool execution failed\",\"data\":" + data + "}";
    }

    private void start() {
        String compact = Json.mapper().readTree(JSON_API).toString();
        String once = Json.mapper().writeValueAsString(compact);
        Map<String, Function<JsonNode, String>> answers = Map.of(
                "in_data", a -> legacyError(compact),
                "string_data", a -> legacyError(once),
                "double_text", a -> AnsweringCalls.toolError(Json.mapper().writeValueAsString(compact)),
                "stack_in_data", a -> legacyError(Json.mapper().writeValueAsString(Map.of("error",
                        "java.sql.SQLException: FATAL: password authentication failed for user \"cnry_user_51\"\n"
                                + "\tat org.postgresql.core.v3.ConnectionFactoryImpl.doAuthentication(ConnectionFactoryImpl.java:693)\n"
                                + "\tat com.acme.crm.internal.Db.open(Db.java:41)"))));
        Upstream u = Upstream.builder("crm", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return new AnsweringCalls(pair.left(), answers, new AtomicInteger());
        }).reconnect(ReconnectPolicy.none()).build();
        gateway = Gateway.builder().upstream(u).incidents(IncidentSink.all()).build();
        client = McpClient.builder("model", "1").connect(ViaGateway.to(gateway));
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    private JsonNode errorOf(String tool) {
        start();
        ToolCallResult result = client.callTool(tool, Json.object().put("email", "not-an-email"));
        assertThat(result.isError()).as(result.text()).isTrue();
        return Json.mapper().readTree(result.text()).get("error");
    }

    private static void assertActionable(JsonNode error) {
        assertThat(error.get("code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(error.get("retryable").asBoolean()).isFalse();
        JsonNode violation = error.get("violations").get(0);
        assertThat(violation.get("pointer").asString()).isEqualTo("/data/attributes/email");
        assertThat(violation.get("message").asString()).isEqualTo("must be a valid email");
    }

    @Test
    void anObjectInDataArrivesAsViolations() {
        assertActionable(errorOf("in_data"));
    }

    @Test
    void theObjectAsAStringInDataArrivesAsViolations() {
        assertActionable(errorOf("string_data"));
    }

    @Test
    void theObjectEncodedTwiceInAnIsErrorTextArrivesAsViolations() {
        assertActionable(errorOf("double_text"));
    }

    @Test
    void aStackTraceInsideDataIsGoneWithTheDatabaseUser() {
        JsonNode error = errorOf("stack_in_data");
        assertThat(error.toString()).doesNotContain("cnry_user_51").doesNotContain("com.acme")
                .doesNotContain("ConnectionFactoryImpl");
    }
}
