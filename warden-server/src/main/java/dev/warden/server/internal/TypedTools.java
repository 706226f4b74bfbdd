package dev.warden.server.internal;

import dev.warden.core.json.Json;
import dev.warden.schema.JsonSchemaValidator;
import dev.warden.server.ToolFunction;
import dev.warden.server.ToolHandler;
import dev.warden.server.ToolResult;
import dev.warden.server.TypedToolHandler;
import java.util.List;
import java.util.function.Function;
import tools.jackson.databind.node.ObjectNode;

/**
 * The handlers of typed tools: bind the arguments to the declared record, call the author's code,
 * and turn a returned record into structured content. Each needs the compiled input schema (for
 * the pointers of binding failures), so it is made once the spec has compiled it.
 */
public final class TypedTools {

    private TypedTools() {
    }

    public static <A> Function<JsonSchemaValidator, ToolHandler> handler(Class<A> arguments, TypedToolHandler<A> body) {
        requireRecord("arguments", arguments);
        return schema -> call -> body.call(arguments.cast(
                ArgumentBinding.bind(call.arguments(), arguments, List.of(), schema)), call.context());
    }

    public static <A, R> Function<JsonSchemaValidator, ToolHandler> function(Class<A> arguments, Class<R> result,
            ToolFunction<A, R> body) {
        requireRecord("arguments", arguments);
        requireRecord("result", result);
        return schema -> call -> structured(body.call(arguments.cast(
                ArgumentBinding.bind(call.arguments(), arguments, List.of(), schema)), call.context()));
    }

    /**
     * A returned record as structured content (the server adds its JSON text); null stays null,
     * which the server reports as the bug it is.
     */
    static ToolResult structured(Object record) {
        return record == null ? null : ToolResult.structured((ObjectNode) Json.tree(record));
    }

    static void requireRecord(String what, Class<?> type) {
        if (!type.isRecord()) {
            throw new IllegalArgumentException("the " + what + " of a typed tool must be a record, not "
                    + type.getName());
        }
    }
}
