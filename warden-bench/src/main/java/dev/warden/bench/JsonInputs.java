package dev.warden.bench;

import dev.warden.core.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON benchmark inputs, built to about {@code size} characters of serialized JSON: a benign tool
 * result, error objects whose strings hold the mixed error text (real newlines inside strings), JSON
 * encoded in strings three levels deep, one wide object, deep nesting, and long escape runs.
 */
final class JsonInputs {

    static final String[] KINDS = {"json-benign", "json-mixed", "json-in-json", "json-wide", "json-deep",
            "json-escapes"};

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private JsonInputs() {
    }

    static JsonNode of(String kind, int size) {
        return switch (kind) {
            case "json-benign" -> array(size, i -> benignRecord(i));
            case "json-mixed" -> array(size, i -> errorObject(Inputs.of("mixed", 700 + i % 10)));
            case "json-in-json" -> array(size, i -> inJson(3, Inputs.of("mixed", 400)));
            case "json-wide" -> wide(size);
            case "json-deep" -> array(size, i -> deep(200));
            case "json-escapes" -> array(size, i -> NODES.arrayNode()
                    .add("\\".repeat(2000)).add("\u0000".repeat(500)).add("\"".repeat(1000)));
            default -> throw new IllegalArgumentException(kind);
        };
    }

    /** The serialized length, which MB/s is measured against. */
    static int serializedSize(JsonNode node) {
        return Json.write(node).length();
    }

    private static JsonNode array(int size, java.util.function.IntFunction<JsonNode> item) {
        ArrayNode array = NODES.arrayNode();
        int length = 2;
        for (int i = 0; length < size; i++) {
            JsonNode next = item.apply(i);
            array.add(next);
            length += serializedSize(next) + 1;
        }
        return array;
    }

    private static JsonNode benignRecord(int i) {
        ObjectNode o = NODES.objectNode();
        o.put("id", i).put("name", "item " + i).put("status", i % 7 == 0 ? "backordered" : "in stock")
                .put("price", 12.5 + i % 100).put("updated", "2026-11-22T07:12:45Z")
                .put("description", "The order could not be placed because the item is out of stock. "
                        + "Please choose another size or try again later.")
                .put("url", "https://docs.example.com/items/" + i);
        o.putArray("tags").add("cotton").add("summer").add("size-" + (i % 5));
        return o;
    }

    private static JsonNode errorObject(String text) {
        ObjectNode error = NODES.objectNode().put("code", -32603).put("message", "Tool execution failed");
        error.putObject("data").put("detail", text).put("retryable", false);
        return NODES.objectNode().put("jsonrpc", "2.0").put("id", 7).set("error", error);
    }

    private static JsonNode inJson(int levels, String text) {
        JsonNode node = errorObject(text);
        for (int l = 0; l < levels; l++) {
            node = NODES.objectNode().put("type", "text").put("text", Json.write(node));
        }
        return node;
    }

    private static JsonNode wide(int size) {
        ObjectNode o = NODES.objectNode();
        int length = 2;
        for (int i = 0; length < size; i++) {
            String key = "field_" + i;
            String value = i % 3 == 0 ? "ok" : "value number " + i + " of a wide object";
            o.put(key, value);
            length += key.length() + value.length() + 6;
        }
        return o;
    }

    private static JsonNode deep(int depth) {
        JsonNode node = NODES.stringNode("leaf at the bottom");
        for (int d = 0; d < depth; d++) {
            node = d % 2 == 0 ? NODES.arrayNode().add(node) : NODES.objectNode().set("k", node);
        }
        return node;
    }
}
