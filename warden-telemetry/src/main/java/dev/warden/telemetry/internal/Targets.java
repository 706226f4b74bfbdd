package dev.warden.telemetry.internal;

import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.mcp.Cancellation;
import dev.warden.core.mcp.Completion;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.Listening;
import dev.warden.core.mcp.Logging;
import dev.warden.core.mcp.Ping;
import dev.warden.core.mcp.Progress;
import dev.warden.core.mcp.Prompts;
import dev.warden.core.mcp.Resources;
import dev.warden.core.mcp.Tools;
import dev.warden.telemetry.KnownTargets;
import dev.warden.telemetry.McpNames;
import io.opentelemetry.api.common.AttributesBuilder;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * What a message is about, by the conventions: its method as recorded (one MCP defines, else
 * {@code _OTHER}), the tool of {@code tools/call} (also {@code gen_ai.operation.name=execute_tool}),
 * the prompt of {@code prompts/get}, the resource URI of the resource requests. A tool or prompt
 * name is the span name's target only when {@link KnownTargets} says it is registered; the URI never is.
 */
public final class Targets {

    /** A name longer than this is no name a server registered; it is left out rather than cut. */
    private static final int MAX_NAME = 256;

    /**
     * MCP's methods (the conventions' {@code mcp.method.name} values and the later versions'): a
     * method outside them is the caller's free text, recorded as {@code _OTHER}. Core names most;
     * the client's side of the protocol it spells where it routes them (Lifecycle).
     */
    private static final Set<String> METHODS = Set.of(Lifecycle.INITIALIZE, Lifecycle.INITIALIZED, Ping.METHOD,
            Cancellation.NOTIFICATION, Progress.NOTIFICATION, Logging.SET_LEVEL, Logging.MESSAGE, Completion.COMPLETE,
            Tools.LIST, Tools.CALL, Tools.LIST_CHANGED, Prompts.LIST, Prompts.GET, Prompts.LIST_CHANGED,
            Resources.LIST, Resources.TEMPLATES_LIST, Resources.READ, Resources.SUBSCRIBE, Resources.UNSUBSCRIBE,
            Resources.UPDATED, Resources.LIST_CHANGED, Listening.METHOD, Listening.ACKNOWLEDGED,
            "roots/list", "notifications/roots/list_changed", "sampling/createMessage", "elicitation/create",
            "notifications/elicitation/complete", "tasks/get", "tasks/result", "tasks/list", "tasks/cancel",
            "notifications/tasks/status", "server/discover");

    private Targets() {
    }

    /** The method as recorded: MCP's own as sent, anything else {@code _OTHER}. */
    public static String method(JsonRpcMessage message) {
        String method = switch (message) {
            case JsonRpcMessage.Request r -> r.method();
            case JsonRpcMessage.Notification n -> n.method();
            case JsonRpcMessage.Response r -> throw new IllegalArgumentException("a response is no operation");
        };
        return METHODS.contains(method) ? method : McpNames.OTHER;
    }

    public static Optional<JsonNode> params(JsonRpcMessage message) {
        return switch (message) {
            case JsonRpcMessage.Request r -> r.params();
            case JsonRpcMessage.Notification n -> n.params();
            case JsonRpcMessage.Response r -> Optional.empty();
        };
    }

    /** The tool or prompt name, for the span name and metrics: only one {@code known} registered. */
    public static Optional<String> target(String method, Optional<JsonNode> params, KnownTargets known) {
        if (!Tools.CALL.equals(method) && !Prompts.GET.equals(method) || params.isEmpty()) {
            return Optional.empty();
        }
        JsonNode name = params.get().get("name");
        if (name == null || !name.isString()) {
            return Optional.empty();
        }
        String text = name.stringValue();
        return !text.isEmpty() && text.length() <= MAX_NAME && known.known(method, text) ? Optional.of(text)
                : Optional.empty();
    }

    /** The attributes of what {@code method} is about that metrics carry too (not the URI: opt-in there). */
    public static void describe(String method, Optional<String> target, AttributesBuilder into) {
        switch (method) {
            case Tools.CALL -> {
                into.put(McpNames.GEN_AI_OPERATION_NAME, McpNames.EXECUTE_TOOL);
                target.ifPresent(name -> into.put(McpNames.GEN_AI_TOOL_NAME, name));
            }
            case Prompts.GET -> target.ifPresent(name -> into.put(McpNames.GEN_AI_PROMPT_NAME, name));
            default -> { }
        }
    }

    /** {@code mcp.resource.uri}, on the span only (high-cardinality). */
    public static Optional<String> resourceUri(String method, Optional<JsonNode> params) {
        return switch (method) {
            case Resources.READ, Resources.SUBSCRIBE, Resources.UNSUBSCRIBE, Resources.UPDATED ->
                    params.map(p -> p.get("uri")).filter(JsonNode::isString).map(JsonNode::stringValue);
            default -> Optional.empty();
        };
    }

    /** Whether the operation is a tool call, whose arguments and result the opt-in capture records. */
    public static boolean isToolCall(String method) {
        return Tools.CALL.equals(method);
    }

    /** The tool call's arguments, for the opt-in capture. */
    public static Optional<JsonNode> arguments(String method, Optional<JsonNode> params) {
        return isToolCall(method) ? params.map(p -> p.get("arguments")).filter(JsonNode::isObject) : Optional.empty();
    }
}
