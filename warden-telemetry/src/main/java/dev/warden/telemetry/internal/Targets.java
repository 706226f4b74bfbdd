package dev.warden.telemetry.internal;

import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.telemetry.McpNames;
import io.opentelemetry.api.common.AttributesBuilder;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * What a message is about, by the conventions: the tool of {@code tools/call} (also {@code
 * gen_ai.operation.name=execute_tool}), the prompt of {@code prompts/get}, the resource URI of
 * the resource requests. The tool or prompt name is the span name's target; the URI never is.
 */
public final class Targets {

    /** A name longer than this is no name a server registered; it is left out rather than cut. */
    private static final int MAX_NAME = 256;

    private Targets() {
    }

    public static String method(JsonRpcMessage message) {
        return switch (message) {
            case JsonRpcMessage.Request r -> r.method();
            case JsonRpcMessage.Notification n -> n.method();
            case JsonRpcMessage.Response r -> throw new IllegalArgumentException("a response is no operation");
        };
    }

    public static Optional<JsonNode> params(JsonRpcMessage message) {
        return switch (message) {
            case JsonRpcMessage.Request r -> r.params();
            case JsonRpcMessage.Notification n -> n.params();
            case JsonRpcMessage.Response r -> Optional.empty();
        };
    }

    /** The tool or prompt name, for the span name. */
    public static Optional<String> target(String method, Optional<JsonNode> params) {
        return switch (method) {
            case "tools/call", "prompts/get" -> text(params, "name");
            default -> Optional.empty();
        };
    }

    /** The attributes of what {@code method} is about that metrics carry too (not the URI: opt-in there). */
    public static void describe(String method, Optional<JsonNode> params, AttributesBuilder into) {
        switch (method) {
            case "tools/call" -> {
                into.put(McpNames.GEN_AI_OPERATION_NAME, McpNames.EXECUTE_TOOL);
                text(params, "name").ifPresent(name -> into.put(McpNames.GEN_AI_TOOL_NAME, name));
            }
            case "prompts/get" -> text(params, "name").ifPresent(name -> into.put(McpNames.GEN_AI_PROMPT_NAME, name));
            default -> { }
        }
    }

    /** {@code mcp.resource.uri}, on the span only (high-cardinality). */
    public static Optional<String> resourceUri(String method, Optional<JsonNode> params) {
        return switch (method) {
            case "resources/read", "resources/subscribe", "resources/unsubscribe", "notifications/resources/updated" ->
                    params.map(p -> p.get("uri")).filter(JsonNode::isString).map(JsonNode::stringValue);
            default -> Optional.empty();
        };
    }

    /** The tool call's arguments, for the opt-in capture. */
    public static Optional<JsonNode> arguments(String method, Optional<JsonNode> params) {
        return "tools/call".equals(method) ? params.map(p -> p.get("arguments")).filter(JsonNode::isObject)
                : Optional.empty();
    }

    private static Optional<String> text(Optional<JsonNode> params, String member) {
        return params.map(p -> p.get(member)).filter(JsonNode::isString).map(JsonNode::stringValue)
                .filter(s -> !s.isEmpty() && s.length() <= MAX_NAME);
    }
}
