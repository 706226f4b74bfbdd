package dev.warden.client;

import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Elicitation answers: defaults from the requested schema fill the fields the user left out (SEP-1034). */
final class Elicitation {

    private Elicitation() {
    }

    /** A copy of {@code result} whose accepted content has every omitted field that declares a default. */
    static ObjectNode withDefaults(ObjectNode request, ObjectNode result) {
        if (result == null || !"accept".equals(result.path("action").asString(""))) {
            return result;
        }
        JsonNode properties = request.path("requestedSchema").path("properties");
        if (!properties.isObject()) {
            return result;
        }
        ObjectNode copy = result.deepCopy();
        JsonNode existing = copy.get("content");
        ObjectNode content = existing instanceof ObjectNode o ? o : copy.putObject("content");
        for (Map.Entry<String, JsonNode> property : properties.properties()) {
            JsonNode defaultValue = property.getValue().get("default");
            if (defaultValue != null && !content.has(property.getKey())) {
                content.set(property.getKey(), defaultValue.deepCopy());
            }
        }
        return copy;
    }
}
