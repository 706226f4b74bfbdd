package dev.warden.server;

import dev.warden.core.json.Json;
import dev.warden.core.headers.ParamHeaders;
import dev.warden.core.mcp.Tools;
import dev.warden.schema.JsonSchemaValidator;
import dev.warden.server.internal.AnnotatedTools;
import dev.warden.server.internal.RecordSchemas;
import dev.warden.server.internal.TypedTools;
import java.lang.invoke.MethodHandles;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A tool's definition and handler. Schemas are compiled when the spec is built, so a bad schema
 * or name fails at start-up with a message that names it, not at the first call.
 *
 * <p>Three ways to declare one: typed, from a record ({@link #of(String, Class, TypedToolHandler)},
 * the schema generated from it); annotated methods ({@link #fromMethods(Object)}); or a JSON Schema
 * written out and the arguments read from an {@code ObjectNode} ({@link #builder}).
 */
public final class ToolSpec {

    private final Tools.Tool tool;
    private final ToolHandler handler;
    private final JsonSchemaValidator inputValidator;
    private final Optional<JsonSchemaValidator> outputValidator;
    private final ParamHeaders paramHeaders;

    private ToolSpec(Builder b) {
        ObjectNode input = b.inputSchema.orElseGet(() -> {
            ObjectNode empty = Json.object();
            empty.put("type", "object");
            return empty;
        });
        this.tool = new Tools.Tool(b.name, b.title, b.description, input, b.outputSchema, b.annotations);
        this.inputValidator = compile(b.name, "inputSchema", input);
        this.handler = Objects.requireNonNull(b.handler, "handler of tool " + b.name).apply(inputValidator);
        this.outputValidator = b.outputSchema.map(schema -> compile(b.name, "outputSchema", schema));
        try {
            this.paramHeaders = ParamHeaders.of(input);
        } catch (ParamHeaders.InvalidException e) {
            throw new IllegalArgumentException("inputSchema of tool " + b.name + ": " + e.getMessage(), e);
        }
    }

    private static JsonSchemaValidator compile(String tool, String which, ObjectNode schema) {
        JsonNode type = schema.get("type");
        if (type == null || !type.isString() || !"object".equals(type.stringValue())) {
            throw new IllegalArgumentException(which + " of tool " + tool + " must have \"type\": \"object\"");
        }
        try {
            return JsonSchemaValidator.compile(schema);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(which + " of tool " + tool + ": " + e.getMessage(), e);
        }
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    /**
     * A tool whose arguments are the record {@code A}: its input schema is generated from the record
     * (components in order, {@link ToolParam} and Jakarta Validation constraints as keywords, no
     * other properties), and the handler receives the arguments bound to it.
     */
    public static <A extends Record> ToolSpec of(String name, Class<A> arguments, TypedToolHandler<A> handler) {
        return builder(name).arguments(arguments, handler).build();
    }

    /**
     * A typed tool that returns a record {@code R}: its output schema is generated from {@code R}, and
     * what the function returns is sent as structured content (and as its JSON text).
     */
    public static <A extends Record, R extends Record> ToolSpec of(String name, Class<A> arguments, Class<R> result,
            ToolFunction<A, R> function) {
        return builder(name).arguments(arguments, result, function).build();
    }

    /**
     * One spec for each {@link Tool} method of {@code target} (its class and superclasses), in the
     * order of their names. Misuse fails here, with a message naming the method. The methods are
     * called through reflection, which a module must open to {@code dev.warden.server}; pass a
     * {@link MethodHandles.Lookup} from the target's own module to avoid that.
     */
    public static List<ToolSpec> fromMethods(Object target) {
        return fromMethods(Objects.requireNonNull(target, "target"), Optional.empty());
    }

    /** As {@link #fromMethods(Object)}, reaching the methods through the caller's {@code lookup}. */
    public static List<ToolSpec> fromMethods(Object target, MethodHandles.Lookup lookup) {
        return fromMethods(Objects.requireNonNull(target, "target"), Optional.of(Objects.requireNonNull(lookup,
                "lookup: pass MethodHandles.lookup(), or call fromMethods(target) to reach the methods by reflection")));
    }

    private static List<ToolSpec> fromMethods(Object target, Optional<MethodHandles.Lookup> lookup) {
        return AnnotatedTools.declared(target, lookup).stream().map(tool -> {
            Builder builder = builder(tool.name()).typed(tool.inputSchema(), tool.outputSchema(), tool.handler());
            tool.title().ifPresent(builder::title);
            tool.description().ifPresent(builder::description);
            tool.annotations().ifPresent(builder::annotations);
            try {
                return builder.build();
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(tool.where() + ": " + e.getMessage(), e);
            }
        }).toList();
    }

    public Tools.Tool tool() {
        return tool;
    }

    public String name() {
        return tool.name();
    }

    public ToolHandler handler() {
        return handler;
    }

    public JsonSchemaValidator inputValidator() {
        return inputValidator;
    }

    public Optional<JsonSchemaValidator> outputValidator() {
        return outputValidator;
    }

    /** The parameters mirrored into {@code Mcp-Param-*} headers ({@code x-mcp-header}), checked over HTTP. */
    public ParamHeaders paramHeaders() {
        return paramHeaders;
    }

    public static final class Builder {
        private final String name;
        private Optional<String> title = Optional.empty();
        private Optional<String> description = Optional.empty();
        private Optional<ObjectNode> inputSchema = Optional.empty();
        private Optional<ObjectNode> outputSchema = Optional.empty();
        private Optional<Tools.Annotations> annotations = Optional.empty();
        // Made once the input schema is compiled: a typed handler needs it for its pointers.
        private Function<JsonSchemaValidator, ToolHandler> handler;

        private Builder(String name) {
            Tools.requireValidName(name);
            this.name = name;
        }

        public Builder title(String title) {
            this.title = Optional.of(title);
            return this;
        }

        public Builder description(String description) {
            this.description = Optional.of(description);
            return this;
        }

        public Builder inputSchema(ObjectNode schema) {
            this.inputSchema = Optional.of(schema.deepCopy());
            return this;
        }

        /** The schema as JSON text, convenient for literal schemas in code. */
        public Builder inputSchema(String json) {
            return inputSchema(parse("inputSchema", json));
        }

        public Builder outputSchema(ObjectNode schema) {
            this.outputSchema = Optional.of(schema.deepCopy());
            return this;
        }

        public Builder outputSchema(String json) {
            return outputSchema(parse("outputSchema", json));
        }

        public Builder annotations(Tools.Annotations annotations) {
            this.annotations = Optional.of(annotations);
            return this;
        }

        public Builder handler(ToolHandler handler) {
            Objects.requireNonNull(handler, "handler");
            this.handler = schema -> handler;
            return this;
        }

        /** The arguments as the record {@code A}, its schema generated: see {@link ToolSpec#of(String, Class, TypedToolHandler)}. */
        public <A extends Record> Builder arguments(Class<A> arguments, TypedToolHandler<A> handler) {
            Objects.requireNonNull(handler, "handler");
            this.inputSchema = Optional.of(schemaOf("inputSchema", arguments));
            this.handler = TypedTools.handler(arguments, handler);
            return this;
        }

        /** Typed arguments and a returned record: see {@link ToolSpec#of(String, Class, Class, ToolFunction)}. */
        public <A extends Record, R extends Record> Builder arguments(Class<A> arguments, Class<R> result,
                ToolFunction<A, R> function) {
            Objects.requireNonNull(function, "function");
            this.inputSchema = Optional.of(schemaOf("inputSchema", arguments));
            this.outputSchema = Optional.of(schemaOf("outputSchema", result));
            this.handler = TypedTools.function(arguments, result, function);
            return this;
        }

        /** For annotated methods, whose schemas and handler are made from the method. */
        Builder typed(ObjectNode input, Optional<ObjectNode> output, Function<JsonSchemaValidator, ToolHandler> h) {
            this.inputSchema = Optional.of(input);
            this.outputSchema = output;
            this.handler = h;
            return this;
        }

        private ObjectNode schemaOf(String which, Class<? extends Record> type) {
            try {
                return RecordSchemas.of(Objects.requireNonNull(type, which));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(which + " of tool " + name + ": " + e.getMessage(), e);
            }
        }

        public ToolSpec build() {
            return new ToolSpec(this);
        }

        private ObjectNode parse(String which, String json) {
            try {
                JsonNode node = Json.mapper().readTree(json);
                if (node instanceof ObjectNode object) {
                    return object;
                }
            } catch (JacksonException e) {
                throw new IllegalArgumentException(which + " of tool " + name + " is not valid JSON: "
                        + e.getOriginalMessage(), e);
            }
            throw new IllegalArgumentException(which + " of tool " + name + " must be a JSON object");
        }
    }
}
