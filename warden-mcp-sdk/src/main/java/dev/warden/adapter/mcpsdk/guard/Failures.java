package dev.warden.adapter.mcpsdk.guard;

import dev.warden.core.error.CapturedFailure;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ErrorRenderer;
import dev.warden.core.error.FailureContext;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.error.VisibleFailure;
import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.incident.Incident;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.mcp.Content;
import dev.warden.core.mcp.Tools;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;

/**
 * A failure in an SDK server turned into what the SDK sends: the boundary records it under a ref
 * and classifies it, Warden's one renderer formats it, and this class only moves the rendered
 * fields into the SDK's records. The errors it makes are remembered (weakly), so that neither a
 * second wrapper nor the guarded mapper treats Warden's own answer as a failure to hide.
 */
public final class Failures {

    /** What the SDK's own -32603 answers are recorded under: no method is known where they are written. */
    static final String SDK_ANSWER = "(mcp-sdk)";
    /** What a transport's error body is recorded under, as Warden's own HTTP refusals are. */
    static final String TRANSPORT = "(http)";

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    private final ErrorBoundary boundary;
    private final Set<JSONRPCError> ours = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

    public Failures(ErrorBoundary boundary) {
        this.boundary = Objects.requireNonNull(boundary, "boundary");
    }

    public ErrorBoundary boundary() {
        return boundary;
    }

    /** A tool's failure as an {@code isError} result; without structured content when the tool has an output schema. */
    public McpSchema.CallToolResult toolResult(Throwable thrown, McpSchema.Tool tool) {
        Optional<McpError> answer = answer(thrown);
        if (answer.isPresent()) {
            throw answer.get();
        }
        CapturedFailure captured = boundary.capture(thrown, FailureContext.tool("tools/call", tool.name()));
        Tools.CallResult rendered = ErrorRenderer.toolResult(captured, tool.outputSchema() == null);
        List<McpSchema.Content> content = rendered.content().stream().map(Failures::content).toList();
        return new McpSchema.CallToolResult(content, true, rendered.structuredContent().map(Failures::map).orElse(null),
                null);
    }

    /**
     * Any other handler's failure as the error the SDK passes through unchanged. A resource that
     * is not found gets MCP's resource-not-found code, as Warden's own server sends it.
     */
    public McpError error(Throwable thrown, String method) {
        Optional<McpError> answer = answer(thrown);
        if (answer.isPresent()) {
            return answer.get();
        }
        CapturedFailure captured = boundary.capture(thrown, FailureContext.of(method));
        ErrorCode code = captured.failure().code();
        int jsonRpc = method.equals(Specs.READ) && code == ErrorCode.NOT_FOUND
                ? SdkRefusals.resourceNotFoundCode() : ErrorRenderer.jsonRpcCodeFor(code);
        return new McpError(remember(ErrorRenderer.rpcError(jsonRpc, VisibleFailure.of(captured))));
    }

    /**
     * What a transport would have serialized as an exception object: Warden's error instead. A
     * refusal of the caller's request (a session it does not know, a message it cannot read) is
     * answered as Warden's own HTTP server answers it, recorded once per kind and window, not once
     * per request. Anything else keeps the SDK's JSON-RPC code (the HTTP client may act on it), and
     * its text goes to the incident.
     */
    public JSONRPCError transportError(Throwable thrown) {
        Optional<McpError> answer = answer(thrown);
        if (answer.isPresent()) {
            return answer.get().getJsonRpcError();
        }
        Optional<ProtocolException> refusal = thrown instanceof McpError e && e.getJsonRpcError() != null
                ? SdkRefusals.ofTransport(e.getJsonRpcError()) : Optional.empty();
        if (refusal.isPresent()) {
            ProtocolException e = refusal.get();
            return refused(e, TRANSPORT, (ref, now) -> new Incident(ref, now, e.symbolic(), TRANSPORT, Optional.empty(),
                    Incident.chainOf(thrown)));
        }
        CapturedFailure captured = boundary.capture(thrown, FailureContext.of(TRANSPORT));
        int jsonRpc = thrown instanceof McpError e && e.getJsonRpcError() != null && e.getJsonRpcError().code() != null
                && JsonRpcError.mayEmit(e.getJsonRpcError().code()) ? e.getJsonRpcError().code()
                : ErrorRenderer.jsonRpcCodeFor(captured.failure().code());
        return remember(ErrorRenderer.rpcError(jsonRpc, VisibleFailure.of(captured)));
    }

    /**
     * An error response the SDK wrote itself (an unknown tool, a method it does not serve, an
     * exception it caught): Warden's answer instead, as Warden's own server gives it. MCP's URL
     * elicitation request (-32042) is the server's answer and passes as it stands.
     */
    public JSONRPCError sdkAnswer(JSONRPCError original) {
        if (Objects.equals(original.code(), McpSchema.ErrorCodes.URL_ELICITATION_REQUIRED)) {
            return original;
        }
        return SdkRefusals.ofAnswer(original).map(e -> refused(e, SDK_ANSWER, (ref, now) -> Incident.ofText(ref, now,
                e.symbolic(), SDK_ANSWER, Optional.empty(), Optional.empty(), text(original), List.of())))
                .orElseGet(() -> replaced(original));
    }

    /**
     * A refusal of the caller's request, recorded once per kind within the boundary's window (a
     * flood of unknown sessions is one incident, as on Warden's own server); the incident keeps
     * what the SDK said, for the operator.
     */
    private JSONRPCError refused(ProtocolException refusal, String context, ErrorBoundary.Draft incident) {
        var kind = new RefusalKind(refusal.code(), refusal.symbolic(), refusal.getMessage(), context);
        return remember(ErrorRenderer.rpcError(refusal, boundary.recordOnce(kind, incident)));
    }

    /** What makes two refusals the same kind: trusted values only, never the caller's input. */
    private record RefusalKind(int code, ErrorCode symbolic, String message, String context) {
    }

    private static String text(JSONRPCError error) {
        return error.message() + (error.data() == null ? "" : "\n" + error.data());
    }

    /**
     * An internal error the SDK made itself (an unwrapped handler's message, in 2.0 its cause chain
     * in {@code data}): recorded as the untrusted text it is, answered with the generic message.
     */
    private JSONRPCError replaced(JSONRPCError original) {
        var ref = boundary.record((r, now) -> Incident.ofText(r, now, ErrorCode.INTERNAL_ERROR, SDK_ANSWER,
                Optional.empty(), Optional.empty(), text(original), List.of()));
        VisibleFailure visible = VisibleFailure.of(ErrorCode.INTERNAL_ERROR, ErrorCode.INTERNAL_ERROR.defaultMessage(), ref);
        return remember(ErrorRenderer.rpcError(JsonRpcError.INTERNAL_ERROR, visible));
    }

    /**
     * An {@code McpError} that is an answer rather than a failure, passed on as it stands: one this
     * guard made (a handler wrapped twice), and MCP's URL elicitation request (-32042), whose
     * {@code data} is the server's own request to the client.
     */
    private Optional<McpError> answer(Throwable thrown) {
        if (thrown instanceof McpError e && e.getJsonRpcError() != null && (ours(e.getJsonRpcError())
                || Objects.equals(e.getJsonRpcError().code(), McpSchema.ErrorCodes.URL_ELICITATION_REQUIRED))) {
            return Optional.of(e);
        }
        return Optional.empty();
    }

    /** Whether this error is one this guard made. */
    public boolean ours(JSONRPCError error) {
        return error != null && ours.contains(error);
    }

    private JSONRPCError remember(JsonRpcError rendered) {
        JSONRPCError error = new JSONRPCError(rendered.code(), rendered.message(),
                rendered.data().map(Failures::map).orElse(null));
        ours.add(error);
        return error;
    }

    private static McpSchema.Content content(Content content) {
        return switch (content) {
            case Content.Text text -> new McpSchema.TextContent(null, text.text(), null);
            case Content.Image i -> throw unexpected(i);
            case Content.Audio a -> throw unexpected(a);
            case Content.ResourceLink l -> throw unexpected(l);
            case Content.EmbeddedResource r -> throw unexpected(r);
        };
    }

    private static IllegalStateException unexpected(Content content) {
        return new IllegalStateException("the renderer writes text only, not " + content.getClass().getSimpleName());
    }

    private static Map<String, Object> map(JsonNode node) {
        return Json.mapper().convertValue(node, MAP);
    }
}
