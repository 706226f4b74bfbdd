package dev.warden.core.sanitize;

import dev.warden.core.json.Json;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.cfg.JsonNodeFeature;

/**
 * Text that ends with a JSON object (a log line, a message quoting a response body): the object's
 * strings hide their lines behind {@code \n} escapes, so it is sanitized as a tree and the prefix as
 * text. Linear: only a text ending in <code>}</code> is looked at, and at most {@value #MAX_TRIES}
 * opening braces are tried, each parse reading at most the rest of the text.
 *
 * @param prefix the text before the object (not blank, whitespace kept)
 * @param json   the object
 * @param suffix what follows the object (whitespace only)
 */
public record JsonTail(String prefix, JsonNode json, String suffix) {

    static final int MAX_TRIES = 4;

    /** Floats as BigDecimal, so an object encoded again keeps its numbers' digits. */
    static final ObjectReader READER = Json.mapper().reader().with(JsonNodeFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    public JsonTail {
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(suffix, "suffix");
    }

    /** The object that ends {@code text} after some other text, if there is one. */
    public static Optional<JsonTail> of(String text) {
        int end = text.length();
        while (end > 0 && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        if (end < 3 || text.charAt(end - 1) != '}') {
            return Optional.empty();
        }
        int from = 0;
        for (int tries = 0; tries < MAX_TRIES; tries++) {
            int open = text.indexOf('{', from);
            if (open < 0 || open >= end - 1) {
                return Optional.empty();
            }
            if (!text.substring(0, open).isBlank()) {
                try {
                    JsonNode node = READER.readTree(text.substring(open, end));
                    if (node != null && node.isObject()) {
                        return Optional.of(new JsonTail(text.substring(0, open), node, text.substring(end)));
                    }
                } catch (JacksonException e) {
                    // not an object to the end: try the next brace
                }
            }
            from = open + 1;
        }
        return Optional.empty();
    }
}
