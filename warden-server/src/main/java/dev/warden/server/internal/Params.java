package dev.warden.server.internal;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Reading request params with -32602 for anything malformed; messages name the field, never its value. */
public final class Params {

    private Params() {
    }

    public static ObjectNode object(Optional<JsonNode> params) {
        if (params.isEmpty()) {
            return Json.object();
        }
        if (params.get() instanceof ObjectNode object) {
            return object;
        }
        throw ProtocolException.invalidParams("Invalid params: params must be an object");
    }

    public static String requiredString(ObjectNode params, String field) {
        JsonNode node = params.get(field);
        if (node == null || !node.isString()) {
            throw ProtocolException.invalidParams("Invalid params: " + field + " must be a string");
        }
        return node.stringValue();
    }

    public static Optional<String> optionalString(ObjectNode params, String field) {
        JsonNode node = params.get(field);
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (!node.isString()) {
            throw ProtocolException.invalidParams("Invalid params: " + field + " must be a string");
        }
        return Optional.of(node.stringValue());
    }

    public static Optional<ObjectNode> optionalObject(ObjectNode params, String field) {
        JsonNode node = params.get(field);
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (node instanceof ObjectNode object) {
            return Optional.of(object);
        }
        throw ProtocolException.invalidParams("Invalid params: " + field + " must be an object");
    }
}
