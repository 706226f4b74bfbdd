package dev.warden.gateway.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code access} section: its rules read, and each compiled now, so a rule that does not
 * compile or is not a boolean stops the gateway from starting, named ({@code access.rules[1]})
 * with CEL's message (config errors go to the operator; the rules are the operator's own text).
 */
final class AccessReader {

    private AccessReader() {
    }

    static Access access(JsonNode node) {
        if (!(node instanceof ObjectNode a)) {
            throw new ConfigException("access: expected a mapping with \"rules\", a list of CEL expressions");
        }
        ConfigNodes.unknownKeys(a, "access.", Set.of("rules"));
        if (!(a.get("rules") instanceof ArrayNode list) || list.isEmpty()) {
            throw new ConfigException("access.rules: expected a list of at least one CEL expression");
        }
        List<String> rules = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode rule = list.get(i);
            if (!rule.isString() || rule.stringValue().isBlank()) {
                throw new ConfigException("access.rules[" + i + "]: expected a CEL expression (a string)");
            }
            rules.add(rule.stringValue());
        }
        try {
            return new Access(rules);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("access." + e.getMessage());
        }
    }
}
