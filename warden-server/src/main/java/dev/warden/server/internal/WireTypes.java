package dev.warden.server.internal;

import com.fasterxml.classmate.ResolvedType;
import com.github.victools.jsonschema.generator.CustomDefinition;
import com.github.victools.jsonschema.generator.SchemaGenerationContext;
import dev.warden.core.json.Json;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Schemas for the types whose JSON form the generator guesses differently from Jackson 3, which
 * binds the arguments and writes the results: a schema must admit exactly what Jackson reads and
 * writes, or callers are refused for values the listing offered (or results fail their own schema).
 */
final class WireTypes {

    /** {@code HH:mm[:ss[.fraction]]}: Jackson's LocalTime refuses the offset RFC 3339 "time" requires. */
    static final String LOCAL_TIME = "^[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?$";

    private WireTypes() {
    }

    /** The definition of {@code type} when the generator's own would disagree with Jackson; else null. */
    static CustomDefinition definition(ResolvedType type, SchemaGenerationContext context) {
        Class<?> raw = type.getErasedType();
        ObjectNode schema = Json.object();
        if (raw.isEnum()) {
            return new CustomDefinition(enumSchema(raw));
        } else if (raw == LocalTime.class) {
            schema.put("type", "string");
            schema.put("pattern", LOCAL_TIME);
        } else if (raw == OptionalInt.class || raw == OptionalLong.class) {
            schema.put("type", "integer");
        } else if (raw == OptionalDouble.class) {
            schema.put("type", "number");
        } else if (raw == byte[].class) {
            schema.put("type", "string");
            schema.put("contentEncoding", "base64");
        } else if (raw == char.class || raw == Character.class) {
            schema.put("type", "string");
            schema.put("minLength", 1);
            schema.put("maxLength", 1);
        } else {
            return null;
        }
        return new CustomDefinition(schema, CustomDefinition.DefinitionType.INLINE,
                CustomDefinition.AttributeInclusion.YES);
    }

    /**
     * The constants as the mapper writes them (Jackson 3 writes an enum's {@code toString()} unless
     * {@code @JsonValue} or {@code @JsonProperty} says otherwise), each checked to read back as
     * itself: a value the listing offers and the binding refuses is found here, at registration.
     */
    static ObjectNode enumSchema(Class<?> type) {
        List<JsonNode> values = new ArrayList<>();
        for (Object constant : type.getEnumConstants()) {
            JsonNode written = Json.mapper().valueToTree(constant);
            Object back;
            try {
                back = Json.mapper().treeToValue(written, type);
            } catch (JacksonException e) {
                back = e;
            }
            if (back != constant) {
                throw new IllegalArgumentException("enum " + type.getName() + ": " + constant + " is written as "
                        + written + ", which does not read back as " + constant);
            }
            values.add(written);
        }
        ObjectNode schema = Json.object();
        if (values.stream().allMatch(JsonNode::isString)) {
            schema.put("type", "string");
        } else if (values.stream().allMatch(JsonNode::isIntegralNumber)) {
            schema.put("type", "integer");
        }
        values.forEach(schema.putArray("enum")::add);
        return schema;
    }
}
