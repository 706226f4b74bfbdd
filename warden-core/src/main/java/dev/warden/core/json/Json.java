package dev.warden.core.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one configured mapper. Optional fields that are empty are left out of the wire form rather
 * than written as {@code null}, and unknown properties are tolerated so that newer peers can add
 * fields without breaking older code.
 */
public final class Json {

    /** Deep enough for any real MCP payload, shallow enough that hostile nesting cannot exhaust the stack. */
    public static final int MAX_NESTING_DEPTH = 256;

    private static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_NESTING_DEPTH)
                            .build())
                    .build())
            .changeDefaultPropertyInclusion(incl -> incl
                    .withValueInclusion(JsonInclude.Include.NON_ABSENT)
                    .withContentInclusion(JsonInclude.Include.NON_ABSENT))
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private Json() {
    }

    public static JsonMapper mapper() {
        return MAPPER;
    }

    public static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    /** Converts a wire record to its tree form. */
    public static JsonNode tree(Object value) {
        return MAPPER.valueToTree(value);
    }

    /** Reads a tree into a wire record; throws {@link tools.jackson.core.JacksonException} on mismatch. */
    public static <T> T read(JsonNode node, Class<T> type) {
        return MAPPER.treeToValue(node, type);
    }

    public static String write(Object value) {
        return MAPPER.writeValueAsString(value);
    }
}
