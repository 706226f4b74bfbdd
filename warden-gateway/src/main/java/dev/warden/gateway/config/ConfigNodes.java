package dev.warden.gateway.config;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Typed reads of one key of the configuration's tree: each either returns the value in the form
 * asked for or throws a {@link ConfigException} naming the key's dotted path and the form
 * expected (never the value, which could be a credential).
 */
final class ConfigNodes {

    private ConfigNodes() {
    }

    static void unknownKeys(ObjectNode node, String prefix, Set<String> known) {
        for (String key : node.propertyNames()) {
            if (!known.contains(key)) {
                throw new ConfigException("unknown key " + prefix + key + "; expected one of "
                        + String.join(", ", new TreeSet<>(known)));
            }
        }
    }

    static Optional<String> text(ObjectNode node, String key, String path, String expected) {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isString() && !v.isNumber()) {
            throw new ConfigException(path + ": expected " + expected);
        }
        return Optional.of(v.asString());
    }

    static Optional<Boolean> bool(ObjectNode node, String key, String path) {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isBoolean()) {
            throw new ConfigException(path + ": expected true or false");
        }
        return Optional.of(v.booleanValue());
    }

    static int integer(ObjectNode node, String key, String path, int otherwise) {
        JsonNode v = node.get(key);
        if (v == null) {
            return otherwise;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new ConfigException(path + ": expected a whole number");
        }
        return v.asInt();
    }

    static Set<String> names(JsonNode list, String path) {
        if (!list.isArray() || !list.valueStream().allMatch(JsonNode::isString)) {
            throw new ConfigException(path + ": expected a list of names");
        }
        Set<String> out = new LinkedHashSet<>();
        list.valueStream().map(JsonNode::stringValue).forEach(out::add);
        return out;
    }

    static Map<String, String> strings(ObjectNode node, String key, String path, Function<String, String> env) {
        if (!node.has(key)) {
            return Map.of();
        }
        if (!(node.get(key) instanceof ObjectNode m)) {
            throw new ConfigException(path + ": expected a mapping of names to strings");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : m.properties()) {
            if (!e.getValue().isString() && !e.getValue().isNumber() && !e.getValue().isBoolean()) {
                throw new ConfigException(path + "." + e.getKey() + ": expected a string");
            }
            out.put(e.getKey(), Interpolation.interpolate(e.getValue().asString(), path + "." + e.getKey(), env));
        }
        return out;
    }

    static Limits.Rate rate(String text, String path) {
        try {
            return Limits.Rate.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(path + ": expected a rate such as 60/m, 10/s or 1000/h");
        }
    }

    /**
     * A copy of {@code node} with {@code ${NAME}} resolved in every string in it (a section read
     * by another module, such as {@code auth}), each error naming the string's key.
     */
    static JsonNode interpolated(JsonNode node, String path, Function<String, String> env) {
        if (node.isString()) {
            return tools.jackson.databind.node.JsonNodeFactory.instance.stringNode(
                    Interpolation.interpolate(node.stringValue(), path, env));
        }
        if (node instanceof ObjectNode object) {
            ObjectNode copy = object.objectNode();
            for (Map.Entry<String, JsonNode> e : object.properties()) {
                copy.set(e.getKey(), interpolated(e.getValue(), path + "." + e.getKey(), env));
            }
            return copy;
        }
        if (node instanceof tools.jackson.databind.node.ArrayNode array) {
            tools.jackson.databind.node.ArrayNode copy = array.arrayNode();
            for (int i = 0; i < array.size(); i++) {
                copy.add(interpolated(array.get(i), path + "[" + i + "]", env));
            }
            return copy;
        }
        return node.deepCopy();
    }
}
