package dev.warden.client;

import dev.warden.core.mcp.Content;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a tool call returned. {@code isError} results are tool failures the model may correct
 * (bad arguments, a business rule); they are results, not exceptions. {@code raw} is the result as
 * received, fields this client does not model included.
 */
public record ToolCallResult(List<Content> content, Optional<JsonNode> structuredContent, boolean isError,
                             ObjectNode raw) {

    public ToolCallResult {
        content = List.copyOf(content);
        structuredContent = Objects.requireNonNullElse(structuredContent, Optional.empty());
        Objects.requireNonNull(raw, "raw");
    }

    /** The text of the text blocks, joined by newlines. */
    public String text() {
        StringBuilder sb = new StringBuilder();
        for (Content c : content) {
            if (c instanceof Content.Text t) {
                if (!sb.isEmpty()) {
                    sb.append('\n');
                }
                sb.append(t.text());
            }
        }
        return sb.toString();
    }
}
