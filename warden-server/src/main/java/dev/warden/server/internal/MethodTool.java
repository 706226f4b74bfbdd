package dev.warden.server.internal;

import dev.warden.schema.JsonSchemaValidator;
import dev.warden.server.ToolCall;
import dev.warden.server.ToolContext;
import dev.warden.server.ToolHandler;
import dev.warden.server.ToolParam;
import dev.warden.server.ToolResult;
import java.lang.annotation.Annotation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One {@link dev.warden.server.Tool} method: its input schema (its record parameter's, or one
 * property per parameter), its output schema (when it returns a record), and how a call reaches it
 * (a method handle, the arguments bound per parameter, the {@link ToolContext} injected).
 */
final class MethodTool {

    /** What fills a parameter: the context, the whole arguments as a record, or one argument by name. */
    private enum Kind { CONTEXT, RECORD, ARGUMENT }

    private record Slot(Kind kind, String name, Type type) {
    }

    private final MethodHandle handle;
    private final List<Slot> slots;
    private final ObjectNode inputSchema;
    private final Optional<ObjectNode> outputSchema;
    private final Returns returns;

    private enum Returns { RESULT, TEXT, RECORD, NOTHING }

    private MethodTool(MethodHandle handle, List<Slot> slots, ObjectNode inputSchema,
                       Optional<ObjectNode> outputSchema, Returns returns) {
        this.handle = handle;
        this.slots = slots;
        this.inputSchema = inputSchema;
        this.outputSchema = outputSchema;
        this.returns = returns;
    }

    static MethodTool of(Object target, Method method, Optional<MethodHandles.Lookup> lookup) {
        TypeBindings types = new TypeBindings(target.getClass());
        Type returned = types.resolve(method.getGenericReturnType());
        Returns returns = returns(TypeBindings.raw(returned));
        List<Slot> slots = new ArrayList<>();
        List<RecordSchemas.Property> properties = new ArrayList<>();
        Parameter[] parameters = method.getParameters();
        if (Arrays.stream(parameters).anyMatch(p -> p.getType() == ToolCall.class)) {
            throw new IllegalArgumentException("takes a ToolCall: a @Tool method takes its arguments "
                    + "(and a ToolContext); ToolSpec.builder(..).handler(call -> ..) takes the whole call");
        }
        long contexts = Arrays.stream(parameters).filter(p -> p.getType() == ToolContext.class).count();
        if (contexts > 1) {
            throw new IllegalArgumentException("takes more than one ToolContext");
        }
        Type[] resolved = new Type[parameters.length];
        for (int i = 0; i < parameters.length; i++) {
            resolved[i] = parameters[i].getType() == ToolContext.class ? ToolContext.class
                    : types.resolve(parameters[i].getParameterizedType());
        }
        List<Integer> arguments = new ArrayList<>();
        for (int i = 0; i < parameters.length; i++) {
            if (parameters[i].getType() != ToolContext.class) {
                arguments.add(i);
            }
        }
        boolean wholeRecord = arguments.size() == 1 && TypeBindings.raw(resolved[arguments.get(0)]).isRecord()
                && parameters[arguments.get(0)].getAnnotation(ToolParam.class) == null;
        Set<String> names = new HashSet<>();
        for (int i = 0; i < parameters.length; i++) {
            Parameter p = parameters[i];
            if (p.getType() == ToolContext.class) {
                slots.add(new Slot(Kind.CONTEXT, "", ToolContext.class));
            } else if (wholeRecord) {
                slots.add(new Slot(Kind.RECORD, "", resolved[i]));
            } else {
                RecordSchemas.Property property = property(p, i, resolved[i]);
                if (!names.add(property.name())) {
                    throw new IllegalArgumentException("two parameters are named \"" + property.name() + "\"");
                }
                properties.add(property);
                slots.add(new Slot(Kind.ARGUMENT, property.name(), resolved[i]));
            }
        }
        ObjectNode input = wholeRecord ? RecordSchemas.of(resolved[arguments.get(0)])
                : RecordSchemas.object(properties);
        Optional<ObjectNode> output = returns == Returns.RECORD
                ? Optional.of(RecordSchemas.of(returned)) : Optional.empty();
        MethodHandle handle = handle(method, lookup);
        if (!AnnotatedTools.isStatic(method)) {
            handle = handle.bindTo(target);
        }
        return new MethodTool(handle, List.copyOf(slots), input, output, returns);
    }

    ObjectNode inputSchema() {
        return inputSchema;
    }

    Optional<ObjectNode> outputSchema() {
        return outputSchema;
    }

    ToolHandler handler(JsonSchemaValidator schema) {
        return call -> result(invoke(arguments(call, schema)));
    }

    private Object[] arguments(ToolCall call, JsonSchemaValidator schema) {
        Object[] values = new Object[slots.size()];
        for (int i = 0; i < values.length; i++) {
            Slot slot = slots.get(i);
            values[i] = switch (slot.kind()) {
                case CONTEXT -> call.context();
                case RECORD -> ArgumentBinding.bind(call.arguments(), slot.type(), List.of(), schema);
                case ARGUMENT -> {
                    // Left out: Optional.empty() for an Optional, null for a boxed type.
                    JsonNode value = call.arguments().get(slot.name());
                    yield ArgumentBinding.bind(value == null ? NullNode.getInstance() : value, slot.type(),
                            List.of(slot.name()), schema);
                }
            };
        }
        return values;
    }

    private Object invoke(Object[] values) throws Exception {
        try {
            return handle.invokeWithArguments(values);
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private ToolResult result(Object value) {
        return switch (returns) {
            case RESULT -> (ToolResult) value;
            case TEXT -> value == null ? null : ToolResult.text((String) value);
            case RECORD -> TypedTools.structured(value);
            case NOTHING -> ToolResult.of();
        };
    }

    private static Returns returns(Class<?> type) {
        if (ToolResult.class.isAssignableFrom(type)) {
            return Returns.RESULT;
        }
        if (type == String.class) {
            return Returns.TEXT;
        }
        if (type == void.class || type == Void.class) {
            return Returns.NOTHING;
        }
        if (type.isRecord()) {
            return Returns.RECORD;
        }
        // An int or a List has no output schema (only an object may) and no one way to be text: the
        // author says which, with a record or ToolResult.text(..).
        throw new IllegalArgumentException("returns " + type.getSimpleName()
                + ": a tool method returns a ToolResult, a String, a record or nothing");
    }

    private static RecordSchemas.Property property(Parameter p, int index, Type type) {
        ToolParam param = p.getAnnotation(ToolParam.class);
        String name;
        if (param != null && !param.name().isEmpty()) {
            name = param.name();
        } else if (p.isNamePresent()) {
            name = p.getName();
        } else {
            throw new IllegalArgumentException("parameter " + index + " has no name: compile with -parameters "
                    + "or name it with @ToolParam(name = \"...\")");
        }
        for (Annotation a : p.getAnnotations()) {
            if (a.annotationType().getPackageName().startsWith("jakarta.validation")) {
                throw new IllegalArgumentException("parameter \"" + name + "\" carries @"
                        + a.annotationType().getSimpleName() + ": constraints are read from a record's "
                        + "components, so take the arguments as one record");
            }
        }
        boolean required = RecordSchemas.required(name, TypeBindings.raw(type), p.getAnnotations());
        Optional<String> description = param == null || param.description().isEmpty()
                ? Optional.empty() : Optional.of(param.description());
        return new RecordSchemas.Property(name, type, description, required);
    }

    private static MethodHandle handle(Method method, Optional<MethodHandles.Lookup> lookup) {
        try {
            if (lookup.isPresent()) {
                return lookup.get().unreflect(method);
            }
            if (!method.trySetAccessible()) {
                throw new IllegalArgumentException("is not accessible to dev.warden.server: open its package "
                        + "to dev.warden.server, or pass MethodHandles.lookup() along with the object");
            }
            return MethodHandles.lookup().unreflect(method);
        } catch (IllegalAccessException e) {
            throw new IllegalArgumentException("is not accessible through the lookup given ("
                    + e.getMessage() + ")", e);
        }
    }
}
