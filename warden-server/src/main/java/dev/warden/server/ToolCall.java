package dev.warden.server;

import dev.warden.core.json.Json;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One call of a tool. The arguments have already been validated against the tool's input schema,
 * so a handler can rely on required properties being present with the declared types.
 */
public record ToolCall(String name, ObjectNode arguments, ToolContext context) {

    public ToolCall {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(context, "context");
    }

    /** A string argument; empty when absent or not a string. */
    public Optional<String> string(String name) {
        JsonNode node = arguments.get(name);
        return node != null && node.isString() ? Optional.of(node.stringValue()) : Optional.empty();
    }

    /** Binds the arguments to a record or class (unknown properties ignored). */
    public <T> T argumentsAs(Class<T> type) {
        return Json.read(arguments, type);
    }
}
