package dev.warden.gateway.internal.catalog;

import dev.warden.core.json.Json;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** A page of a list result ({@code tools/list}, {@code resources/list}, …) with some of its items left out. */
public final class Listing {

    private Listing() {
    }

    /**
     * {@code page} with only the items of its {@code field} array that {@code keep} accepts; the
     * page itself when all are kept or it has no such array.
     */
    public static JsonNode keeping(JsonNode page, String field, Predicate<JsonNode> keep) {
        if (!(page instanceof ObjectNode object) || !(page.get(field) instanceof ArrayNode items)) {
            return page;
        }
        ArrayNode kept = Json.mapper().createArrayNode();
        for (JsonNode item : items) {
            if (keep.test(item)) {
                kept.add(item);
            }
        }
        if (kept.size() == items.size()) {
            return page;
        }
        ObjectNode copy = object.deepCopy();
        copy.set(field, kept);
        return copy;
    }
}
