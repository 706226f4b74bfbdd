package dev.warden.server;

import dev.warden.core.error.ToolFailure;
import dev.warden.core.mcp.Content;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/** What a tool returns: content (and structured content), or a failure it chose to return rather than throw. */
public sealed interface ToolResult {

    record Success(List<Content> content, Optional<ObjectNode> structuredContent) implements ToolResult {
        public Success {
            content = List.copyOf(content);
            structuredContent = Objects.requireNonNullElse(structuredContent, Optional.empty());
        }
    }

    record Failed(ToolFailure failure) implements ToolResult {
        public Failed {
            Objects.requireNonNull(failure, "failure");
        }
    }

    static ToolResult text(String text) {
        return new Success(List.of(Content.text(text)), Optional.empty());
    }

    /**
     * Structured content; the server adds its JSON text as a text block as well, as the spec
     * recommends for clients that do not read {@code structuredContent}.
     */
    static ToolResult structured(ObjectNode structuredContent) {
        return new Success(List.of(), Optional.of(structuredContent));
    }

    static ToolResult of(Content... content) {
        return new Success(List.of(content), Optional.empty());
    }

    static ToolResult failed(ToolFailure failure) {
        return new Failed(failure);
    }
}
