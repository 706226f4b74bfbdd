package dev.warden.server;

import static dev.warden.server.TestClient.json;
import static dev.warden.server.TestClient.toolError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.error.ToolFailure;
import dev.warden.core.json.Json;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Tools from the annotated methods of a plain object, registered with one call. */
class AnnotatedToolsTest {

    record CancelOrder(@ToolParam(description = "The order to cancel") String id, @Min(1) @Max(10) int quantity) {
    }

    record Cancelled(String id, int quantity) {
    }

    record Address(String city) {
    }

    static class OrderTools {
        final List<String> pinged = new ArrayList<>();

        @Tool(description = "Cancels an order.", idempotent = true)
        Cancelled cancelOrder(CancelOrder order, ToolContext context) {
            return new Cancelled(order.id(), order.quantity());
        }

        @Tool(name = "find", title = "Find orders", readOnly = true, destructive = false, openWorld = false)
        String findOrders(ToolContext context, @ToolParam(description = "Whose orders") String customer,
                          Optional<Integer> limit, @ToolParam(required = false) Address shipTo) {
            return customer + " " + limit.map(String::valueOf).orElse("all") + " " + (shipTo == null ? "-" : shipTo.city())
                    + (context.cancelled() ? " cancelled" : "");
        }

        @Tool
        void ping() {
            pinged.add("ping");
        }

        @Tool
        ToolResult refund(String id) {
            throw ToolFailure.conflict("Order " + id + " was already refunded.");
        }

        String notATool() {
            return "not listed";
        }
    }

    /** What a framework's proxy looks like: a subclass overriding the annotated methods, unannotated. */
    static class ProxiedOrderTools extends OrderTools {
        @Override
        String findOrders(ToolContext context, String customer, Optional<Integer> limit, Address shipTo) {
            return "proxied " + super.findOrders(context, customer, limit, shipTo);
        }
    }

    private TestClient client;

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
    }

    private TestClient serve(Object tools) throws Exception {
        client = TestClient.initialized(McpServer.builder("annotated", "1.0").tools(tools).build());
        return client;
    }

    @Test
    void oneCallRegistersEveryAnnotatedMethodByName() throws Exception {
        serve(new OrderTools());
        JsonNode tools = client.request("tools/list", json("{}")).get("result").get("tools");
        assertThat(tools.valueStream().map(t -> t.get("name").stringValue()))
                .containsExactly("cancel_order", "find", "ping", "refund");
    }

    @Test
    void titlesDescriptionsAndOnlyTheHintsThatDifferFromTheSpecsDefaults() throws Exception {
        serve(new OrderTools());
        JsonNode cancel = client.listedTool("cancel_order");
        assertThat(cancel.get("description").stringValue()).isEqualTo("Cancels an order.");
        assertThat(cancel.get("annotations")).isEqualTo(json("{\"idempotentHint\":true}"));
        JsonNode find = client.listedTool("find");
        assertThat(find.get("title").stringValue()).isEqualTo("Find orders");
        assertThat(find.get("annotations"))
                .isEqualTo(json("{\"readOnlyHint\":true,\"openWorldHint\":false}"));
        assertThat(client.listedTool("ping").has("annotations")).isFalse();
    }

    @Test
    void aRecordParameterIsTheInputAndAReturnedRecordTheOutput() throws Exception {
        serve(new OrderTools());
        JsonNode cancel = client.listedTool("cancel_order");
        assertThat(cancel.get("inputSchema").get("properties").propertyNames()).containsExactly("id", "quantity");
        assertThat(cancel.get("inputSchema").get("properties").get("quantity").get("maximum").asInt()).isEqualTo(10);
        assertThat(cancel.get("outputSchema").get("required").valueStream().map(JsonNode::stringValue))
                .containsExactly("id", "quantity");
        JsonNode result = client.callTool("cancel_order", json("{\"id\":\"o-1\",\"quantity\":2}")).get("result");
        assertThat(result.get("structuredContent")).isEqualTo(Json.tree(new Cancelled("o-1", 2)));
    }

    @Test
    void severalParametersAreOnePropertyEachAndTheContextIsInjected() throws Exception {
        serve(new OrderTools());
        JsonNode schema = client.listedTool("find").get("inputSchema");
        assertThat(schema.get("properties").propertyNames()).containsExactly("customer", "limit", "shipTo");
        assertThat(schema.get("required").valueStream().map(JsonNode::stringValue)).containsExactly("customer");
        assertThat(schema.get("properties").get("customer").get("description").stringValue()).isEqualTo("Whose orders");
        assertThat(schema.get("additionalProperties").asBoolean(true)).isFalse();
        assertThat(schema.has("$schema")).isFalse();
        assertThat(client.callTool("find", json("{\"customer\":\"ada\"}")).get("result").get("content").get(0)
                .get("text").stringValue()).isEqualTo("ada all -");
        assertThat(client.callTool("find", json("{\"customer\":\"ada\",\"limit\":3,\"shipTo\":{\"city\":\"Lyon\"}}"))
                .get("result").get("content").get(0).get("text").stringValue()).isEqualTo("ada 3 Lyon");
    }

    @Test
    void argumentsOfSeveralParametersAreValidatedWithPointers() throws Exception {
        serve(new OrderTools());
        String raw = client.callTool("find", json("{\"limit\":\"many-probe\",\"invented_probe\":1}")).toString();
        JsonNode error = toolError(json(raw));
        assertThat(error.get("code").stringValue()).isEqualTo("VALIDATION_ERROR");
        assertThat(error.get("message").stringValue()).contains("/customer: is required").contains("/limit: ");
        assertThat(raw).doesNotContain("many-probe").doesNotContain("invented_probe");
        JsonNode tooLarge = toolError(client.callTool("find", json("{\"customer\":\"ada\",\"limit\":1e20}")));
        assertThat(tooLarge.get("message").stringValue()).isEqualTo("/limit: is out of range for the declared type");
    }

    @Test
    void nothingReturnedIsEmptyContentAndAThrownToolFailureArrivesUnchanged() throws Exception {
        OrderTools tools = new OrderTools();
        serve(tools);
        JsonNode ping = client.callTool("ping", json("{}")).get("result");
        assertThat(ping.get("isError").asBoolean()).isFalse();
        assertThat(ping.get("content").size()).isZero();
        assertThat(tools.pinged).containsExactly("ping");
        JsonNode error = toolError(client.callTool("refund", json("{\"id\":\"o-9\"}")));
        assertThat(error.get("code").stringValue()).isEqualTo("CONFLICT");
        assertThat(error.get("message").stringValue()).isEqualTo("Order o-9 was already refunded.");
    }

    @Test
    void aSubclassOverridingTheMethodsIsCalledThroughItsOverride() throws Exception {
        serve(new ProxiedOrderTools());
        assertThat(client.callTool("find", json("{\"customer\":\"ada\"}")).get("result").get("content").get(0)
                .get("text").stringValue()).isEqualTo("proxied ada all -");
    }

    private static final class Private {
        @Tool
        private String secret() {
            return "reached";
        }
    }

    @Test
    void aPrivateMethodIsReachedThroughTheCallersLookup() throws Exception {
        List<ToolSpec> specs = ToolSpec.fromMethods(new Private(), MethodHandles.lookup());
        assertThat(specs).extracting(ToolSpec::name).containsExactly("secret");
        McpServer.Builder builder = McpServer.builder("lookup", "1.0");
        specs.forEach(builder::tool);
        client = TestClient.initialized(builder.build());
        assertThat(client.callTool("secret", json("{}")).get("result").get("content").get(0).get("text").stringValue())
                .isEqualTo("reached");
    }

    abstract static class Lookups<T> {
        @Tool
        abstract String describe(T item);
    }

    static class AddressLookups extends Lookups<Address> {
        @Tool
        @Override
        String describe(Address item) {
            return "in " + item.city();
        }
    }

    @Test
    void aGenericMethodOverriddenIsOneToolWithTheOverridesTypes() throws Exception {
        serve(new AddressLookups());
        assertThat(client.request("tools/list", json("{}")).get("result").get("tools").size()).isEqualTo(1);
        assertThat(client.callTool("describe", json("{\"city\":\"Lyon\"}")).get("result").get("content")
                .get(0).get("text").stringValue()).isEqualTo("in Lyon");
    }

    @Test
    void snakeCaseNamesFollowWordsAndAcronyms() throws Exception {
        class Names {
            @Tool
            void readHTTPStatus() {
            }

            @Tool
            void listV2Orders() {
            }
        }
        assertThat(ToolSpec.fromMethods(new Names())).extracting(ToolSpec::name)
                .containsExactly("list_v2_orders", "read_http_status");
    }
}
