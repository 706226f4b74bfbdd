package dev.warden.server;

import static dev.warden.server.TestClient.json;
import static dev.warden.server.TestClient.toolError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.warden.core.error.Ref;
import dev.warden.core.error.ToolFailure;
import dev.warden.core.incident.Incident;
import dev.warden.core.json.Json;
import java.time.LocalTime;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A typed tool's schemas and Jackson 3, which binds its arguments and writes its results, agree:
 * what the listing offers is accepted, what the tool returns passes its own output schema, and a
 * failure while binding is blamed on whoever made it.
 */
class TypedToolsWireTest {

    /** Jackson 3 writes and reads an enum by its toString(). */
    enum Size { SMALL, LARGE;
        @Override
        public String toString() {
            return name().toLowerCase();
        }
    }

    record Shirt(Size size) { }

    record Clock(LocalTime at) { }

    record Limits(OptionalInt count, OptionalLong total, OptionalDouble ratio) { }

    record Query(String q) { }

    /** A helper beside the components: never a property of the result. */
    record Basket(List<String> items) {
        public boolean isEmpty() {
            return items.isEmpty();
        }

        public int getCount() {
            return items.size();
        }
    }

    record Sized(Size size, LocalTime at) { }

    /** A type Jackson cannot build: no creator. */
    static final class Money {
        private final long cents;

        Money(long cents, String currency) {
            this.cents = cents;
        }
    }

    record Pay(Money amount) { }

    record Search(@ToolParam(required = false) String q) {
        Search {
            q = q.trim();   // a server bug: q may be left out
        }
    }

    record Window(int from, int to) {
        Window {
            if (from > to) {
                throw ToolFailure.invalid("/to", "must not be less than from");
            }
        }
    }

    record Report(String name, Window window) { }

    record Opt(Optional<String> note, @ToolParam(required = false) Integer priority) { }

    record Maybe(Optional<Size> size, Optional<Query> query, @ToolParam(required = false) LocalTime at) { }

    enum Broken {
        @JsonProperty("same") ONE, @JsonProperty("same") TWO
    }

    record UsesBroken(Broken b) { }

    private final List<Incident> incidents = new CopyOnWriteArrayList<>();
    private TestClient client;

    /** The whole answer: {@code toolError} reads its {@code result}. */
    private JsonNode answer(ToolSpec spec, String arguments) throws Exception {
        client = TestClient.initialized(McpServer.builder("wire", "1").incidents(incidents::add).tool(spec).build());
        return client.callTool(spec.name(), json(arguments));
    }

    private JsonNode call(ToolSpec spec, String arguments) throws Exception {
        return answer(spec, arguments).get("result");
    }

    private static JsonNode array(String text) {
        return Json.mapper().readTree(text);
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
    }

    @Test
    void anEnumIsListedAsJacksonReadsItAndEachListedValueIsAccepted() throws Exception {
        ToolSpec spec = ToolSpec.of("shirt", Shirt.class, (s, ctx) -> ToolResult.text(s.size().name()));
        assertThat(spec.tool().inputSchema().get("properties").get("size").get("enum"))
                .isEqualTo(array("[\"small\",\"large\"]"));
        JsonNode result = call(spec, "{\"size\":\"large\"}");
        assertThat(result.get("isError").asBoolean()).as("%s", result).isFalse();
        assertThat(result.get("content").get(0).get("text").stringValue()).isEqualTo("LARGE");
    }

    @Test
    void anEnumWhoseListedValuesDoNotReadBackIsRefusedAtRegistration() {
        assertThatThrownBy(() -> ToolSpec.of("broken", UsesBroken.class, (b, ctx) -> ToolResult.text("")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("broken")
                .hasMessageContaining("Broken").hasMessageContaining("does not read back");
    }

    @Test
    void aLocalTimeTakesTheTextJacksonReadsAndNoOffset() throws Exception {
        ToolSpec spec = ToolSpec.of("clock", Clock.class, (c, ctx) -> ToolResult.text(c.at().toString()));
        assertThat(spec.tool().inputSchema().get("properties").get("at").has("format")).isFalse();
        assertThat(call(spec, "{\"at\":\"10:00:00\"}").get("content").get(0).get("text").stringValue())
                .isEqualTo("10:00");
        JsonNode error = toolError(client.callTool("clock", json("{\"at\":\"10:00:00+02:00\"}")));
        assertThat(error.get("code").stringValue()).isEqualTo("VALIDATION_ERROR");
        assertThat(error.get("violations").get(0).get("pointer").stringValue()).isEqualTo("/at");
    }

    @Test
    void optionalPrimitivesAreNumbers() throws Exception {
        ToolSpec spec = ToolSpec.of("limits", Limits.class,
                (l, ctx) -> ToolResult.text(l.count() + " " + l.total() + " " + l.ratio()));
        JsonNode properties = spec.tool().inputSchema().get("properties");
        assertThat(properties.get("count").get("type")).isEqualTo(array("[\"integer\",\"null\"]"));
        assertThat(properties.get("ratio").get("type")).isEqualTo(array("[\"number\",\"null\"]"));
        JsonNode result = call(spec, "{\"count\":3,\"total\":4,\"ratio\":0.5}");
        assertThat(result.get("content").get(0).get("text").stringValue())
                .isEqualTo("OptionalInt[3] OptionalLong[4] OptionalDouble[0.5]");
    }

    @Test
    void aReturnedRecordIsWrittenFromItsComponentsOnly() throws Exception {
        JsonNode result = call(ToolSpec.of("basket", Query.class, Basket.class, (q, ctx) -> new Basket(List.of("a"))),
                "{\"q\":\"x\"}");
        assertThat(result.get("isError").asBoolean()).as("%s", result).isFalse();
        assertThat(result.get("structuredContent")).isEqualTo(json("{\"items\":[\"a\"]}"));
    }

    @Test
    void returnedEnumsAndTimesPassTheirOwnOutputSchema() throws Exception {
        JsonNode result = call(ToolSpec.of("sized", Query.class, Sized.class,
                (q, ctx) -> new Sized(Size.LARGE, LocalTime.of(10, 0))), "{\"q\":\"x\"}");
        assertThat(result.get("isError").asBoolean()).as("%s", result).isFalse();
        assertThat(result.get("structuredContent").get("size").stringValue()).isEqualTo("large");
    }

    @Test
    void aTypeJacksonCannotBuildIsAnInternalErrorWithARefAndTheCauseInTheIncident() throws Exception {
        JsonNode error = toolError(answer(ToolSpec.of("pay", Pay.class, (p, ctx) -> ToolResult.text("paid")),
                "{\"amount\":{}}"));
        assertThat(error.get("code").stringValue()).isEqualTo("INTERNAL_ERROR");
        assertThat(Ref.isWellFormed(error.get("ref").stringValue())).isTrue();
        assertThat(incidents.toString()).contains("InvalidDefinitionException").contains("Money");
    }

    @Test
    void aBugInTheRecordsConstructorIsTheServersFailureWithItsCause() throws Exception {
        JsonNode error = toolError(answer(ToolSpec.of("search", Search.class, (s, ctx) -> ToolResult.text(s.q())), "{}"));
        assertThat(error.get("code").stringValue()).isEqualTo("INTERNAL_ERROR");
        assertThat(incidents.toString()).contains("NullPointerException");
    }

    @Test
    void aNestedRecordsToolFailurePointsFromTheRoot() throws Exception {
        JsonNode error = toolError(answer(ToolSpec.of("report", Report.class, (r, ctx) -> ToolResult.text("ok")),
                "{\"name\":\"n\",\"window\":{\"from\":5,\"to\":1}}"));
        assertThat(error.get("code").stringValue()).isEqualTo("VALIDATION_ERROR");
        assertThat(error.get("message").stringValue()).isEqualTo("/window/to: must not be less than from");
    }

    @Test
    void anArgumentThatIsNotRequiredMayBeNull() throws Exception {
        JsonNode result = call(ToolSpec.of("opt", Opt.class, (o, ctx) -> ToolResult.text(o.note() + " " + o.priority())),
                "{\"note\":null,\"priority\":null}");
        assertThat(result.get("isError").asBoolean()).as("%s", result).isFalse();
        assertThat(result.get("content").get(0).get("text").stringValue()).isEqualTo("Optional.empty null");
    }

    @Test
    void aNullForAnOptionalEnumRecordOrTimeIsAcceptedToo() throws Exception {
        JsonNode result = call(ToolSpec.of("maybe", Maybe.class,
                (m, ctx) -> ToolResult.text(m.size() + " " + m.query() + " " + m.at())),
                "{\"size\":null,\"query\":null,\"at\":null}");
        assertThat(result.get("isError").asBoolean()).as("%s", result).isFalse();
        assertThat(result.get("content").get(0).get("text").stringValue()).isEqualTo("Optional.empty Optional.empty null");
        JsonNode small = client.callTool("maybe", json("{\"size\":\"small\"}")).get("result");
        assertThat(small.get("content").get(0).get("text").stringValue()).startsWith("Optional[small]");
    }
}
