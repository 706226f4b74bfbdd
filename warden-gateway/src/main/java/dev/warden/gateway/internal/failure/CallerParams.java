package dev.warden.gateway.internal.failure;

import dev.warden.core.incident.IncidentArguments;
import dev.warden.core.sanitize.CallerInput;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the caller sent with a request, as the failure path needs it: the strings that may come
 * back to it, the names of its arguments, and the arguments as an incident keeps them.
 */
final class CallerParams {

    private static final int MAX_ECHOES = 32;

    private CallerParams() {
    }

    /** The names of a call's arguments (top level): what a prose validation failure may point at. */
    static Set<String> argumentNames(Optional<JsonNode> params) {
        Set<String> names = new LinkedHashSet<>();
        params.map(p -> p.get("arguments")).filter(JsonNode::isObject)
                .ifPresent(a -> a.propertyNames().forEach(n -> {
                    if (names.size() < MAX_ECHOES) {
                        names.add(n);
                    }
                }));
        return names;
    }

    /** What the caller sent with a request: a call's arguments, else the params (a resource's URI, say). */
    static CallerInput callerOf(Optional<JsonNode> params) {
        return params.map(p -> p.has("arguments") ? p.get("arguments") : p).filter(JsonNode::isObject)
                .map(CallerInput::of).orElse(CallerInput.none());
    }

    /**
     * The strings of a request's params worth scrubbing from its errors: long enough not to be
     * common words (3+ characters), short enough to be values (at most 4096), at most 32, longest
     * first so a value containing another is replaced whole.
     */
    public static Set<String> inputsOf(Optional<JsonNode> params) {
        List<String> found = new ArrayList<>();
        params.ifPresent(p -> collect(p, found, 0));
        found.sort(Comparator.comparingInt(String::length).reversed());
        return new LinkedHashSet<>(found);
    }

    private static void collect(JsonNode node, List<String> out, int depth) {
        if (out.size() >= MAX_ECHOES || depth > 16) {
            return;
        }
        if (node.isString()) {
            String v = node.stringValue();
            if (v.length() >= 3 && v.length() <= 4096) {
                out.add(v);
            }
            return;
        }
        if (node instanceof ObjectNode object) {
            for (Map.Entry<String, JsonNode> field : object.properties()) {
                // _meta is protocol bookkeeping; a tool's or prompt's name is the server's own word
                if (!field.getKey().equals("_meta") && !(depth == 0 && field.getKey().equals("name"))) {
                    collect(field.getValue(), out, depth + 1);
                }
            }
        } else if (node instanceof ArrayNode array) {
            for (JsonNode item : array) {
                collect(item, out, depth + 1);
            }
        }
    }

    /**
     * The request's arguments as an incident keeps them for the operator: every string sanitized
     * where it stands (never the serialized text), bounded ({@link IncidentArguments}).
     */
    public static Optional<String> argumentsOf(Optional<JsonNode> params) {
        return params.map(p -> p.get("arguments")).filter(a -> a != null && !a.isNull())
                .map(IncidentArguments::of);
    }
}
