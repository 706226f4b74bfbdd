package dev.warden.core.error;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.mcp.Content;
import dev.warden.core.mcp.Tools;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The only code that formats a failure for the peer. Two shapes:
 *
 * <ul>
 *   <li>a tool failure becomes a {@code CallToolResult} with {@code isError: true} whose text is the
 *       compact JSON {@code {"error":{"code","message","retryable","retryAfterMs","ref"}}};</li>
 *   <li>a protocol failure becomes a JSON-RPC error with a standard code and
 *       {@code data: {"code", "ref", ...}}.</li>
 * </ul>
 *
 * <p>{@code structuredContent}: the same object is attached only when the tool declares no
 * {@code outputSchema}. The TypeScript SDK client (1.x, through 1.32) validates any
 * {@code structuredContent} it receives against the tool's output schema even when
 * {@code isError} is true and throws if it does not match, turning a readable tool failure into
 * a client exception. The spec only requires conforming structured content on success; so
 * for tools with an output schema the error travels in the text block alone.
 */
public final class ErrorRenderer {

    private ErrorRenderer() {
    }

    public static ObjectNode errorObject(ToolFailure failure, Ref ref) {
        ObjectNode root = Json.object();
        ObjectNode error = root.putObject("error");
        error.put("code", failure.code().name());
        error.put("message", failure.safeMessage());
        error.put("retryable", failure.retryable());
        failure.retryAfter().ifPresent(d -> error.put("retryAfterMs", d.toMillis()));
        if (failure instanceof ValidationFailure validation) {
            ArrayNode violations = error.putArray("violations");
            for (Violation v : validation.violations()) {
                violations.addObject().put("pointer", v.pointer()).put("message", v.message());
            }
        }
        error.put("ref", ref.value());
        return root;
    }

    /**
     * @param withStructuredContent false when the tool has an {@code outputSchema}; see the class comment
     */
    public static Tools.CallResult toolResult(CapturedFailure captured, boolean withStructuredContent) {
        return toolResult(errorObject(captured.failure(), captured.ref()), withStructuredContent);
    }

    /** An {@code isError} result carrying an error object made by {@link #errorObject} (and perhaps adjusted). */
    public static Tools.CallResult toolResult(ObjectNode errorObject, boolean withStructuredContent) {
        return new Tools.CallResult(List.of(Content.text(errorObject.toString())),
                withStructuredContent ? Optional.of(errorObject) : Optional.empty(), true);
    }

    /** A JSON-RPC error for a failure outside a tool result (a resource read, a prompt, a bad request). */
    public static JsonRpcError rpcError(int jsonRpcCode, String trustedMessage, CapturedFailure captured) {
        if (!JsonRpcError.mayEmit(jsonRpcCode)) {
            jsonRpcCode = JsonRpcError.INTERNAL_ERROR;
        }
        ObjectNode data = Json.object();
        ToolFailure failure = captured.failure();
        data.put("code", failure.code().name());
        data.put("retryable", failure.retryable());
        failure.retryAfter().ifPresent(d -> data.put("retryAfterMs", d.toMillis()));
        data.put("ref", captured.ref().value());
        return JsonRpcError.of(jsonRpcCode, trustedMessage, data);
    }

    /** The standard JSON-RPC code for a failure that has to be a protocol error. */
    public static int jsonRpcCodeFor(ErrorCode code) {
        return switch (code) {
            case VALIDATION_ERROR, NOT_FOUND -> JsonRpcError.INVALID_PARAMS;
            case PERMISSION_DENIED, CONFLICT, RATE_LIMITED, TIMEOUT, UPSTREAM_ERROR, BLOCKED, INTERNAL_ERROR ->
                    JsonRpcError.INTERNAL_ERROR;
        };
    }

    /** Renders a {@link ProtocolException}: its trusted message, its code, and Warden's code and a ref in data. */
    public static JsonRpcError rpcError(ProtocolException e, Ref ref) {
        ObjectNode data = e.data().orElseGet(Json::object);
        data.put("code", e.symbolic().name());
        if (!data.path("ref").isString()) {
            data.put("ref", ref.value()); // a ref set already names the incident recorded where it was raised
        }
        return JsonRpcError.of(e.code(), e.getMessage(), data);
    }
}
