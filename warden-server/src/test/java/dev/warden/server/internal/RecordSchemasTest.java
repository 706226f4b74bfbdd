package dev.warden.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.warden.core.json.Json;
import dev.warden.schema.JsonSchemaValidator;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The schemas generated for the shapes records take, each one compiled by Warden's validator. */
class RecordSchemasTest {

    record Node(String name, List<Node> children) {
    }

    enum Priority {
        @JsonProperty("low") LOW,
        @JsonProperty("high") HIGH
    }

    record Ticket(Priority priority) {
    }

    record Tagged(Map<String, Integer> counts, @JsonProperty("order_id") @JsonPropertyDescription("Its id") String orderId,
                  @Nullable String maybe) {
    }

    /** Any annotation named Nullable (jakarta's, jspecify's, one's own) makes a component optional. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.FIELD, ElementType.RECORD_COMPONENT})
    @interface Nullable {
    }

    private static ObjectNode compiled(Class<?> type) {
        ObjectNode schema = RecordSchemas.of(type);
        JsonSchemaValidator.compile(schema);
        return schema;
    }

    @Test
    void aRecursiveRecordRefersToItself() {
        ObjectNode schema = compiled(Node.class);
        assertThat(schema.get("properties").get("children").get("items").get("$ref").stringValue()).isEqualTo("#");
        JsonSchemaValidator validator = JsonSchemaValidator.compile(schema);
        assertThat(validator.validate(Json.mapper().readTree(
                "{\"name\":\"a\",\"children\":[{\"name\":\"b\",\"children\":[{\"children\":[]}]}]}")))
                .extracting(v -> v.line()).containsExactly("/children/0/children/0/name: is required");
    }

    @Test
    void mapsJacksonNamesAndNullableComponents() {
        ObjectNode schema = compiled(Tagged.class);
        JsonNode properties = schema.get("properties");
        assertThat(properties.propertyNames()).containsExactly("counts", "order_id", "maybe");
        assertThat(properties.get("counts").get("additionalProperties").get("type").stringValue()).isEqualTo("integer");
        assertThat(properties.get("order_id").get("description").stringValue()).isEqualTo("Its id");
        assertThat(schema.get("required").valueStream().map(JsonNode::stringValue)).containsExactly("counts", "order_id");
    }

    @Test
    void enumConstantsAreNamedAsJacksonBindsThem() {
        ObjectNode schema = compiled(Ticket.class);
        assertThat(schema.get("properties").get("priority").get("enum").valueStream().map(JsonNode::stringValue))
                .containsExactly("low", "high");
        assertThat(JsonSchemaValidator.compile(schema).validate(Json.mapper().readTree("{\"priority\":\"high\"}")))
                .isEmpty();
        assertThat(Json.read(Json.mapper().readTree("{\"priority\":\"high\"}"), Ticket.class).priority())
                .isEqualTo(Priority.HIGH);
    }

    @Test
    void severalTypesShareOneDefs() {
        record Address(String city) {
        }
        ObjectNode schema = RecordSchemas.object(List.of(
                new RecordSchemas.Property("from", Address.class, Optional.empty(), true),
                new RecordSchemas.Property("to", Address.class, Optional.of("Where to"), false),
                new RecordSchemas.Property("limit", new TypeRef<Optional<Integer>>() { }.type(), Optional.empty(), false)));
        JsonSchemaValidator.compile(schema);
        assertThat(schema.get("$defs").propertyNames()).containsExactly("Address");
        assertThat(schema.get("properties").get("to").get("description").stringValue()).isEqualTo("Where to");
        // Not required: left out or null, one rule for records and parameters.
        assertThat(schema.get("properties").get("limit").get("type")).isEqualTo(Json.mapper().readTree("[\"integer\",\"null\"]"));
        assertThat(schema.get("required").valueStream().map(JsonNode::stringValue)).containsExactly("from");
    }

    /** A generic type written out, as a method parameter would declare it. */
    abstract static class TypeRef<T> {
        java.lang.reflect.Type type() {
            return ((java.lang.reflect.ParameterizedType) getClass().getGenericSuperclass()).getActualTypeArguments()[0];
        }
    }
}
