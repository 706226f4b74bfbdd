package dev.warden.core.shape;

import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Decodes a text that is itself JSON: the text block of an {@code isError} result, an error
 * {@code message} holding a serialized object, or the same JSON encoded again as a JSON string
 * ({@code "\"{\\\"errors\\\": …}\""}), layer after layer. Bounded: at most {@value #MAX_LENGTH} characters,
 * {@value #MAX_DEPTH} levels of nesting and {@value #MAX_LAYERS} layers of string encoding; anything else
 * (plain prose, a number, broken or trailing JSON) is not JSON here and gives empty. Never throws.
 */
public final class EmbeddedJson {

    public static final int MAX_LENGTH = 1 << 20;
    public static final int MAX_DEPTH = 64;
    public static final int MAX_LAYERS = 3;

    private static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_DEPTH)
                            .maxStringLength(MAX_LENGTH)
                            .maxNumberLength(64)
                            .maxDocumentLength(MAX_LENGTH * 4L)
                            .build())
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private EmbeddedJson() {
    }

    /** The object or array {@code text} encodes (through up to {@value #MAX_LAYERS} string layers), or empty. */
    public static Optional<JsonNode> decode(String text) {
        return decode(text, MAX_LENGTH);
    }

    static Optional<JsonNode> decode(String text, int maxLength) {
        String t = text;
        for (int layer = 0; t != null && layer <= MAX_LAYERS; layer++) {
            if (t.length() > maxLength) {
                return Optional.empty();
            }
            char first = firstNonSpace(t);
            if (first != '{' && first != '[' && first != '"') {
                return Optional.empty();
            }
            JsonNode node;
            try {
                node = MAPPER.readTree(t);
            } catch (JacksonException | IllegalArgumentException e) {
                return Optional.empty();
            }
            if (node == null) {
                return Optional.empty();
            }
            if (node.isObject() || node.isArray()) {
                return Optional.of(node);
            }
            t = node.isString() ? node.stringValue() : null;
        }
        return Optional.empty();
    }

    /** Cheap pre-check so prose is never handed to the parser. */
    static char firstNonSpace(String t) {
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return c;
            }
        }
        return 0;
    }
}
