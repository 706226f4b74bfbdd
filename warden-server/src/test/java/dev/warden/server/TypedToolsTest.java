package dev.warden.server;

import static dev.warden.server.TestClient.json;
import static dev.warden.server.TestClient.toolError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.Ref;
import dev.warden.core.error.ToolFailure;
import dev.warden.core.incident.Incident;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Tools;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** A tool declared from a record: what a client lists, what it is told when its arguments are wrong. */
class TypedToolsTest {

    enum Reason { CUSTOMER_REQUEST, FRAUD }

    record Address(@NotBlank String city, @Size(max = 8) String zip) {
    }

    record CancelOrder(
            @ToolParam(description = "The order to cancel, as o-<digits>") @Pattern(regexp = "^o-[0-9]+$") String id,
            Reason reason,
            @Min(1) @Max(10) int quantity,
            Optional<String> note,
            Address shipTo,
            List<Address> alsoTo,
            @ToolParam(required = false) Integer priority) {
    }

    record Cancelled(String id, boolean refunded, Optional<String> note) {
    }

    record Counted(long count, List<Integer> sizes, Optional<LocalDate> since,
                   @ToolParam(required = false) Map<String, Long> byDay) {
    }

    /** A check across components: the constructor refuses the combination with a trusted message. */
    record Range(int from, int to) {
        Range {
            if (from > to) {
                throw ToolFailure.invalid("/to", "must not be less than from");
            }
        }
    }

    record Strict(String code) {
        Strict {
            if (code.startsWith("x")) {
                throw new IllegalArgumentException("internal rule 42 refused " + code);
            }
        }
    }

    private final List<Incident> incidents = new CopyOnWriteArrayList<>();
    private TestClient client;

    @BeforeEach
    void start() throws Exception {
        McpServer server = McpServer.builder("typed", "1.0").incidents(incidents::add)
                .tool(ToolSpec.of("cancel_order", CancelOrder.class, Cancelled.class, (order, context) -> {
                    if (order.id().equals("o-404")) {
                        throw ToolFailure.notFound("No order with this id.");
                    }
                    String id = order.id().equals("o-500") ? null : order.id();   // a bug: a required field left null
                    return new Cancelled(id, order.reason() == Reason.FRAUD, order.note());
                }))
                .tool(ToolSpec.of("count", Counted.class, (counted, context) ->
                        ToolResult.text(counted.count() + " " + counted.sizes() + " " + counted.since())))
                .tool(ToolSpec.of("range", Range.class, (range, context) -> ToolResult.text(range.from() + ".." + range.to())))
                .tool(ToolSpec.of("strict", Strict.class, (strict, context) -> ToolResult.text(strict.code())))
                .tool(ToolSpec.builder("lookup").title("Look an order up")
                        .annotations(Tools.Annotations.readOnly())
                        .arguments(CancelOrder.class, (order, context) -> ToolResult.text("found " + order.id()))
                        .build())
                .build();
        client = TestClient.initialized(server);
    }

    @AfterEach
    void stop() {
        client.close();
    }

    private static final String GOOD = """
            {"id":"o-12","reason":"FRAUD","quantity":2,"shipTo":{"city":"Lyon","zip":"69001"},"alsoTo":[]}""";

    @Test
    void theInputSchemaIsGeneratedFromTheRecordInDeclarationOrder() throws Exception {
        JsonNode schema = client.listedTool("cancel_order").get("inputSchema");
        assertThat(schema.get("type").stringValue()).isEqualTo("object");
        assertThat(schema.get("properties").propertyNames())
                .containsExactly("id", "reason", "quantity", "note", "shipTo", "alsoTo", "priority");
        assertThat(schema.get("required").valueStream().map(JsonNode::stringValue))
                .containsExactly("id", "reason", "quantity", "shipTo", "alsoTo");
        assertThat(schema.get("additionalProperties").asBoolean(true)).isFalse();
        assertThat(schema.has("$schema")).isFalse();
    }

    @Test
    void constraintsAndDescriptionsBecomeKeywords() throws Exception {
        JsonNode properties = client.listedTool("cancel_order").get("inputSchema").get("properties");
        assertThat(properties.get("id").get("description").stringValue()).isEqualTo("The order to cancel, as o-<digits>");
        assertThat(properties.get("id").get("pattern").stringValue()).isEqualTo("^o-[0-9]+$");
        assertThat(properties.get("quantity").get("type").stringValue()).isEqualTo("integer");
        assertThat(properties.get("quantity").get("minimum").asInt()).isEqualTo(1);
        assertThat(properties.get("quantity").get("maximum").asInt()).isEqualTo(10);
        assertThat(properties.get("reason").get("enum").valueStream().map(JsonNode::stringValue))
                .containsExactly("CUSTOMER_REQUEST", "FRAUD");
        assertThat(properties.get("note").get("type").valueStream().map(JsonNode::stringValue)).contains("string");
        assertThat(properties.get("alsoTo").get("type").stringValue()).isEqualTo("array");
    }

    @Test
    void aRecordUsedTwiceIsDefinedOnceUnderDefs() throws Exception {
        JsonNode schema = client.listedTool("cancel_order").get("inputSchema");
        JsonNode address = schema.get("$defs").get("Address");
        assertThat(address.get("properties").propertyNames()).containsExactly("city", "zip");
        assertThat(address.get("required").valueStream().map(JsonNode::stringValue)).containsExactly("city", "zip");
        assertThat(address.get("properties").get("zip").get("maxLength").asInt()).isEqualTo(8);
        assertThat(address.get("additionalProperties").asBoolean(true)).isFalse();
        assertThat(schema.get("properties").get("shipTo").get("$ref").stringValue()).isEqualTo("#/$defs/Address");
        assertThat(schema.get("properties").get("alsoTo").get("items").get("$ref").stringValue())
                .isEqualTo("#/$defs/Address");
    }

    @Test
    void invalidArgumentsAreAValidationErrorWithPointersAndNoneOfTheValues() throws Exception {
        String raw = client.callTool("cancel_order", json("""
                {"id":"DROP TABLE orders","reason":"x-secret-reason","quantity":99,"sk_live_probe_key":1,
                 "shipTo":{"zip":"zip-9876543210"},"alsoTo":[{"city":"Paris","street_probe":"x"}]}""")).toString();
        JsonNode error = toolError(json(raw));
        assertThat(error.get("code").stringValue()).isEqualTo("VALIDATION_ERROR");
        assertThat(error.get("message").stringValue().split("\n")).contains(
                "/quantity: must be less than or equal to 10",
                "/shipTo/city: is required",
                "/alsoTo/0/zip: is required");
        assertThat(error.get("message").stringValue()).contains("/id: ").contains("/reason: ").contains("/shipTo/zip: ");
        assertThat(raw).doesNotContain("DROP TABLE").doesNotContain("x-secret-reason")
                .doesNotContain("sk_live_probe_key").doesNotContain("9876543210").doesNotContain("street_probe");
    }

    @Test
    void validArgumentsAreBoundToTheRecord() throws Exception {
        JsonNode result = client.callTool("lookup", json(GOOD)).get("result");
        assertThat(result.get("isError").asBoolean()).isFalse();
        assertThat(result.get("content").get(0).get("text").stringValue()).isEqualTo("found o-12");
    }

    @Test
    void aNumberTooLargeForAnIntIsAValidationErrorAtItsPointer() throws Exception {
        String raw = client.callTool("count", json("{\"count\":1e20,\"sizes\":[1]}")).toString();
        JsonNode error = toolError(json(raw));
        assertThat(error.get("code").stringValue()).isEqualTo("VALIDATION_ERROR");
        assertThat(error.get("message").stringValue()).isEqualTo("/count: is out of range for the declared type");
        JsonNode inList = toolError(client.callTool("count", json("{\"count\":1,\"sizes\":[1, 3e10]}")));
        assertThat(inList.get("message").stringValue()).isEqualTo("/sizes/1: is out of range for the declared type");
        assertThat(incidents).noneMatch(i -> i.code().name().equals("INTERNAL_ERROR"));
    }

    @Test
    void aKeyTheCallerInventedIsAStarInTheBindingsPointerToo() throws Exception {
        String raw = client.callTool("count", json("{\"count\":1,\"sizes\":[],\"byDay\":{\"day_probe_key\":1e30}}"))
                .toString();
        assertThat(toolError(json(raw)).get("message").stringValue())
                .isEqualTo("/byDay/*: is out of range for the declared type");
        assertThat(raw).doesNotContain("day_probe_key");
    }

    @Test
    void aValueTheSchemaAdmitsButTheTypeCannotHoldIsAValidationError() throws Exception {
        String raw = client.callTool("count", json("{\"count\":1,\"sizes\":[],\"since\":\"yesterday-probe\"}"))
                .toString();
        JsonNode error = toolError(json(raw));
        assertThat(error.get("code").stringValue()).isEqualTo("VALIDATION_ERROR");
        assertThat(error.get("message").stringValue()).startsWith("/since: ");
        assertThat(raw).doesNotContain("yesterday-probe");
    }

    @Test
    void aToolFailureFromTheRecordsConstructorReachesTheCaller() throws Exception {
        JsonNode error = toolError(client.callTool("range", json("{\"from\":5,\"to\":1}")));
        assertThat(error.get("code").stringValue()).isEqualTo("VALIDATION_ERROR");
        assertThat(error.get("message").stringValue()).isEqualTo("/to: must not be less than from");
    }

    @Test
    void anyOtherRefusalOfTheConstructorIsAValidationErrorWithoutItsText() throws Exception {
        String raw = client.callTool("strict", json("{\"code\":\"x-probe\"}")).toString();
        JsonNode error = toolError(json(raw));
        assertThat(error.get("code").stringValue()).isEqualTo("VALIDATION_ERROR");
        assertThat(error.get("message").stringValue()).isEqualTo("does not fit the declared type");
        assertThat(raw).doesNotContain("rule 42").doesNotContain("x-probe");
    }

    @Test
    void aReturnedRecordIsStructuredContentWithItsTextAndAnOutputSchema() throws Exception {
        JsonNode output = client.listedTool("cancel_order").get("outputSchema");
        assertThat(output.get("properties").propertyNames()).containsExactly("id", "refunded", "note");
        assertThat(output.get("required").valueStream().map(JsonNode::stringValue)).containsExactly("id", "refunded");
        JsonNode result = client.callTool("cancel_order", json(GOOD)).get("result");
        assertThat(result.get("isError").asBoolean()).isFalse();
        assertThat(result.get("structuredContent")).isEqualTo(Json.tree(new Cancelled("o-12", true, Optional.empty())));
        assertThat(json(result.get("content").get(0).get("text").stringValue())).isEqualTo(result.get("structuredContent"));
    }

    @Test
    void aReturnedRecordThatViolatesItsSchemaIsAnInternalErrorWithARef() throws Exception {
        String raw = client.callTool("cancel_order", json(GOOD.replace("o-12", "o-500"))).toString();
        JsonNode error = toolError(json(raw));
        assertThat(error.get("code").stringValue()).isEqualTo("INTERNAL_ERROR");
        String ref = error.get("ref").stringValue();
        assertThat(Ref.isWellFormed(ref)).isTrue();
        Incident incident = incidents.stream().filter(i -> i.ref().value().equals(ref)).findFirst().orElseThrow();
        assertThat(incident.chain().get(0).message().orElseThrow()).contains("violates its outputSchema").contains("/id");
    }

    @Test
    void aToolFailureFromATypedHandlerArrivesUnchanged() throws Exception {
        JsonNode error = toolError(client.callTool("cancel_order", json(GOOD.replace("o-12", "o-404"))));
        assertThat(error.get("code").stringValue()).isEqualTo("NOT_FOUND");
        assertThat(error.get("message").stringValue()).isEqualTo("No order with this id.");
    }

    @Test
    void theBuilderFormKeepsTitleAndAnnotations() throws Exception {
        JsonNode tool = client.listedTool("lookup");
        assertThat(tool.get("title").stringValue()).isEqualTo("Look an order up");
        assertThat(tool.get("annotations").get("readOnlyHint").asBoolean()).isTrue();
        assertThat(tool.get("inputSchema")).isEqualTo(client.listedTool("cancel_order").get("inputSchema"));
        assertThat(tool.has("outputSchema")).isFalse();
    }
}
