package dev.warden.core.error;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.mcp.Content;
import dev.warden.core.mcp.Tools;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The only code that formats a failure for the peer, from one {@link VisibleFailure} and nothing
 * else: a tool failure as an {@code isError} result whose text is compact JSON, any other failure as
 * a JSON-RPC error with Warden's code and ref in {@code data}. Nothing in it is made up: a ref whose
 * incident was not kept ({@link UnrecordedRefs}), an unknown wait, no violations are left out.
 * The shapes, and why tools with an output schema get no {@code structuredContent} on error:
 * docs/reference/error-codes.md and error-flow.md.
 */
public final class ErrorRenderer {

    private ErrorRenderer() {
    }

    /** Warden's error object, {@code {"error":{…}}}: the text (and perhaps structured content) of an {@code isError} result. */
    public static ObjectNode errorObject(VisibleFailure failure) {
        ObjectNode root = Json.object();
        ObjectNode error = root.putObject("error");
        error.put("code", failure.code().name());
        error.put("message", failure.message());
        details(error, failure);
        return root;
    }

    public static ObjectNode errorObject(ToolFailure failure, Ref ref) {
        return errorObject(VisibleFailure.of(failure, ref));
    }

    /**
     * @param withStructuredContent false when the tool has an {@code outputSchema}; see the class comment
     */
    public static Tools.CallResult toolResult(VisibleFailure failure, boolean withStructuredContent) {
        ObjectNode errorObject = errorObject(failure);
        return new Tools.CallResult(List.of(Content.text(errorObject.toString())),
                withStructuredContent ? Optional.of(errorObject) : Optional.empty(), true);
    }

    public static Tools.CallResult toolResult(CapturedFailure captured, boolean withStructuredContent) {
        return toolResult(VisibleFailure.of(captured), withStructuredContent);
    }

    /**
     * A JSON-RPC error for a failure outside a tool result (a resource read, a prompt, an upstream's
     * error passed on). A code Warden may not send (the legacy band) becomes -32603.
     */
    public static JsonRpcError rpcError(int jsonRpcCode, VisibleFailure failure) {
        return rpcError(jsonRpcCode, failure, Optional.empty());
    }

    /** The standard JSON-RPC code for a failure that has to be a protocol error. */
    public static int jsonRpcCodeFor(ErrorCode code) {
        return switch (code) {
            case VALIDATION_ERROR, NOT_FOUND -> JsonRpcError.INVALID_PARAMS;
            case PERMISSION_DENIED, CONFLICT, RATE_LIMITED, TIMEOUT, UPSTREAM_ERROR, BLOCKED, INTERNAL_ERROR ->
                    JsonRpcError.INTERNAL_ERROR;
        };
    }

    /**
     * Renders a {@link ProtocolException}: its code and trusted message, the {@code data} fields its
     * specification defines, then Warden's part. {@code ref} names the incident recorded for it; a
     * ref it carries already (a failure captured where it was raised) wins.
     */
    public static JsonRpcError rpcError(ProtocolException e, Ref ref) {
        return rpcError(e.code(), VisibleFailure.of(e, e.ref().orElse(ref)), e.data());
    }

    private static JsonRpcError rpcError(int jsonRpcCode, VisibleFailure failure, Optional<ObjectNode> own) {
        ObjectNode data = Json.object();
        own.ifPresent(fields -> {
            for (Map.Entry<String, JsonNode> field : fields.properties()) {
                data.set(field.getKey(), field.getValue());
            }
        });
        data.put("code", failure.code().name());
        details(data, failure);
        return JsonRpcError.of(JsonRpcError.mayEmit(jsonRpcCode) ? jsonRpcCode : JsonRpcError.INTERNAL_ERROR,
                failure.message(), data);
    }

    /** What both shapes carry after the code (and message): retryability, the wait, violations, the ref. */
    private static void details(ObjectNode into, VisibleFailure failure) {
        into.put("retryable", failure.retryable());
        failure.retryAfter().ifPresent(d -> into.put("retryAfterMs", millisRoundedUp(d)));
        if (!failure.violations().isEmpty()) {
            ArrayNode violations = into.putArray("violations");
            for (Violation v : failure.violations()) {
                violations.addObject().put("pointer", v.pointer()).put("message", v.message());
            }
        }
        if (!UnrecordedRefs.contains(failure.ref())) {
            into.put("ref", failure.ref().value()); // a ref whose incident could not be kept is no use to anyone
        }
    }

    private static long millisRoundedUp(Duration d) {
        long millis = d.toMillis();
        return d.minusMillis(millis).isZero() ? millis : millis + 1;
    }
}
