package dev.warden.server.internal;

import dev.warden.core.json.Json;
import dev.warden.schema.JsonSchemaValidator;
import dev.warden.server.ToolFunction;
import dev.warden.server.ToolHandler;
import dev.warden.server.ToolResult;
import dev.warden.server.TypedToolHandler;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import tools.jackson.databind.cfg.MapperConfig;
import tools.jackson.databind.introspect.AnnotatedMember;
import tools.jackson.databind.introspect.AnnotatedMethod;
import tools.jackson.databind.introspect.JacksonAnnotationIntrospector;
import tools.jackson.databind.json.JsonMapper;
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
     * Results are written from their records' components only, as the output schema lists them: a
     * helper such as {@code isEmpty()} or {@code getTotal()} would otherwise become a property the
     * schema forbids, and every call an INTERNAL_ERROR.
     */
    private static final JsonMapper RESULTS = Json.mapper().rebuild()
            .annotationIntrospector(new ComponentsOnly())
            .build();

    /** Ignores a record's methods that are not the accessor of one of its components. */
    private static final class ComponentsOnly extends JacksonAnnotationIntrospector {
        @Override
        public boolean hasIgnoreMarker(MapperConfig<?> config, AnnotatedMember member) {
            Class<?> owner = member.getDeclaringClass();
            if (member instanceof AnnotatedMethod method && owner.isRecord() && method.getParameterCount() == 0
                    && Arrays.stream(owner.getRecordComponents()).noneMatch(c -> c.getName().equals(method.getName()))) {
                return true;
            }
            return super.hasIgnoreMarker(config, member);
        }
    }

    /**
     * A returned record as structured content (the server adds its JSON text); null stays null,
     * which the server reports as the bug it is.
     */
    static ToolResult structured(Object record) {
        return record == null ? null : ToolResult.structured((ObjectNode) RESULTS.valueToTree(record));
    }

    static void requireRecord(String what, Class<?> type) {
        if (!type.isRecord()) {
            throw new IllegalArgumentException("the " + what + " of a typed tool must be a record, not "
                    + type.getName());
        }
    }
}
