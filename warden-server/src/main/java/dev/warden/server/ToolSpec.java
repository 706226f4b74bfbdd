package dev.warden.server;

import dev.warden.core.json.Json;
import dev.warden.core.headers.ParamHeaders;
import dev.warden.core.mcp.Tools;
import dev.warden.schema.JsonSchemaValidator;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A tool's definition and handler. Schemas are compiled when the spec is built, so a bad schema
 * or name fails at start-up with a message that names it, not at the first call.
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
        this.handler = Objects.requireNonNull(b.handler, "handler of tool " + b.name);
        this.inputValidator = compile(b.name, "inputSchema", input);
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
        private ToolHandler handler;

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
            this.handler = Objects.requireNonNull(handler, "handler");
            return this;
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
