package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ToolFailure;
import dev.warden.core.json.Json;
import dev.warden.http.server.McpHttpServer;
import dev.warden.server.McpServer;
import dev.warden.server.ToolParam;
import dev.warden.server.ToolSpec;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * A typed tool (schemas generated from records) as the official TypeScript SDK client sees it: the
 * generated input schema listed, a returned record accepted by the client's own check against the
 * generated output schema, and wrong arguments answered with pointers and none of the values.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TypedToolsEndToEndTest {

    record CancelOrder(@ToolParam(description = "The order to cancel") @Pattern(regexp = "^o-[0-9]+$") String id,
                       @Min(1) @Max(10) int quantity) {
    }

    record Cancelled(String id, int quantity, boolean refunded) {
    }

    private McpHttpServer http;

    @BeforeAll
    void start() throws Exception {
        McpServer server = McpServer.builder("typed", "1.0.0")
                .tool(ToolSpec.of("cancel_order", CancelOrder.class, Cancelled.class, (order, context) -> {
                    if (order.id().equals("o-404")) {
                        throw ToolFailure.notFound("No order with this id.");
                    }
                    return new Cancelled(order.id(), order.quantity(), true);
                }))
                .build();
        http = McpHttpServer.builder().host("127.0.0.1").port(0).onSession(server::connect).build().start();
    }

    @AfterAll
    void stop() throws Exception {
        if (http != null) {
            http.close();
        }
    }

    private JsonNode call(String arguments) throws Exception {
        Processes.Result result = Processes.run(Processes.node("call-tool.mjs", http.endpoint().toString(),
                "cancel_order", arguments));
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        return Json.mapper().readTree(result.stdout());
    }

    @Test
    void theClientListsTheGeneratedSchemasAndAcceptsTheReturnedRecord() throws Exception {
        JsonNode out = call("{\"id\":\"o-7\",\"quantity\":2}");
        JsonNode tool = out.get("listTools").get("value").get("tools").get(0);
        assertThat(tool.get("inputSchema").get("required").valueStream().map(JsonNode::stringValue))
                .containsExactly("id", "quantity");
        assertThat(tool.get("inputSchema").get("properties").get("id").get("description").stringValue())
                .isEqualTo("The order to cancel");
        assertThat(tool.get("outputSchema").get("properties").propertyNames())
                .containsExactly("id", "quantity", "refunded");
        // The SDK client checks structuredContent against the listed outputSchema before returning it.
        assertThat(out.get("call").get("ok").asBoolean()).as("%s", out.get("call")).isTrue();
        assertThat(out.get("call").get("value").get("structuredContent"))
                .isEqualTo(Json.tree(new Cancelled("o-7", 2, true)));
    }

    @Test
    void wrongArgumentsAreAValidationErrorWithPointersAndNoneOfTheValues() throws Exception {
        JsonNode out = call("{\"id\":\"DROP TABLE probe_orders\",\"quantity\":1e20,\"token_probe\":\"sk_live_x\"}");
        assertThat(out.get("call").get("ok").asBoolean()).as("%s", out.get("call")).isTrue();
        JsonNode result = out.get("call").get("value");
        assertThat(result.get("isError").asBoolean()).isTrue();
        String text = result.get("content").get(0).get("text").stringValue();
        assertThat(text).contains("VALIDATION_ERROR").contains("/id: ").contains("/quantity: ");
        assertThat(out.get("call").toString()).doesNotContain("DROP TABLE").doesNotContain("probe_orders")
                .doesNotContain("token_probe").doesNotContain("sk_live_x");
    }

    @Test
    void aToolFailureFromTheTypedHandlerArrivesAsThrown() throws Exception {
        JsonNode result = call("{\"id\":\"o-404\",\"quantity\":1}").get("call").get("value");
        assertThat(result.get("isError").asBoolean()).isTrue();
        assertThat(result.get("content").get(0).get("text").stringValue()).contains("NOT_FOUND")
                .contains("No order with this id.");
    }
}
