package dev.warden.core.mcp;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/** Records of the tools area: listing and calling tools. */
public final class Tools {

    public static final String LIST = "tools/list";
    public static final String CALL = "tools/call";
    public static final String LIST_CHANGED = "notifications/tools/list_changed";

    private Tools() {
    }

    /**
     * A tool as listed. Names follow the 2025-11-25 rule (1 to 128 of {@code A-Z a-z 0-9 _ - .}),
     * checked here so a bad name fails at registration, not in a client.
     */
    public record Tool(String name, Optional<String> title, Optional<String> description, ObjectNode inputSchema,
                       Optional<ObjectNode> outputSchema, Optional<Annotations> annotations) {
        public Tool {
            requireValidName(name);
            title = Objects.requireNonNullElse(title, Optional.empty());
            description = Objects.requireNonNullElse(description, Optional.empty());
            Objects.requireNonNull(inputSchema, "inputSchema");
            outputSchema = Objects.requireNonNullElse(outputSchema, Optional.empty());
            annotations = Objects.requireNonNullElse(annotations, Optional.empty());
        }
    }

    public static void requireValidName(String name) {
        Objects.requireNonNull(name, "name");
        if (!isValidName(name)) {
            throw new IllegalArgumentException("tool name \"" + name
                    + "\" must be 1 to 128 characters of A-Z a-z 0-9 _ - .");
        }
    }

    public static boolean isValidName(String name) {
        if (name.isEmpty() || name.length() > 128) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '_' || c == '-' || c == '.';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** Hints about a tool's behaviour; untrusted when they come from a server you do not control. */
    public record Annotations(Optional<String> title, Optional<Boolean> readOnlyHint,
                              Optional<Boolean> destructiveHint, Optional<Boolean> idempotentHint,
                              Optional<Boolean> openWorldHint) {
        public Annotations {
            title = Objects.requireNonNullElse(title, Optional.empty());
            readOnlyHint = Objects.requireNonNullElse(readOnlyHint, Optional.empty());
            destructiveHint = Objects.requireNonNullElse(destructiveHint, Optional.empty());
            idempotentHint = Objects.requireNonNullElse(idempotentHint, Optional.empty());
            openWorldHint = Objects.requireNonNullElse(openWorldHint, Optional.empty());
        }

        public static Annotations readOnly() {
            return new Annotations(Optional.empty(), Optional.of(true), Optional.of(false), Optional.of(true),
                    Optional.of(false));
        }
    }

    public record ListResult(List<Tool> tools, Optional<String> nextCursor) {
        public ListResult {
            tools = List.copyOf(tools);
            nextCursor = Objects.requireNonNullElse(nextCursor, Optional.empty());
        }
    }

    public record CallParams(String name, Optional<ObjectNode> arguments,
                             @JsonProperty("_meta") Optional<ObjectNode> meta) {
        public CallParams {
            Objects.requireNonNull(name, "name");
            arguments = Objects.requireNonNullElse(arguments, Optional.empty());
            meta = Objects.requireNonNullElse(meta, Optional.empty());
        }
    }

    /** The outcome of a call. {@code isError} results are tool failures the model may correct. */
    public record CallResult(List<Content> content, Optional<ObjectNode> structuredContent,
                             @JsonProperty("isError") boolean isError) {
        public CallResult {
            content = List.copyOf(content);
            structuredContent = Objects.requireNonNullElse(structuredContent, Optional.empty());
        }
    }
}
