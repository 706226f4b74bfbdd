package dev.warden.gateway.internal.tracing;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.transport.RequestHeaders;
import dev.warden.telemetry.Channel;
import dev.warden.telemetry.McpNames;
import dev.warden.telemetry.McpOperation;
import dev.warden.telemetry.McpTelemetry;
import dev.warden.telemetry.Outcome;
import dev.warden.telemetry.SanitizedMessage;
import io.opentelemetry.context.Context;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The CLIENT span of one request the gateway sends an upstream, a child of the span of the
 * client's request it serves. Its context goes upstream in the request's {@code _meta} ({@link
 * #sent}), in place of any the client put there ({@code traceparent} and {@code tracestate} both:
 * the client's state never rides on the gateway's parent), so the upstream's own span is this
 * one's child and not the client's; the rest of {@code _meta} goes as it came. It ends with what the gateway
 * saw: a result ({@code tool_error} when {@code isError}), an error answer's JSON-RPC code, or no
 * answer (timeout, the connection lost) with the Warden code and ref the gateway recorded it
 * under. Never the upstream's own words: those reach the incident only.
 */
public final class UpstreamSpan {

    private final McpOperation op;
    private final ObjectNode sent;

    private UpstreamSpan(McpOperation op, ObjectNode sent) {
        this.op = op;
        this.sent = sent;
    }

    /**
     * Starts the span of {@code method} with {@code params} to the upstream {@code telemetry} speaks
     * for (it carries {@code warden.upstream}), under {@code parent}, the context of the client's
     * request's span.
     */
    public static UpstreamSpan start(McpTelemetry telemetry, Channel channel, Context parent, String method,
            ObjectNode params) {
        // Described as a notification: the upstream request's id is only known once it is sent (sentAs).
        McpOperation op = telemetry.startClient(new JsonRpcMessage.Notification(method, Optional.of(params), Map.of()),
                channel, parent);
        ObjectNode bare = withoutTraceContext(params);
        ObjectNode sent = propagated(op, bare);
        // Nothing of ours went (no SDK, no propagator): the client's own context goes on as it came.
        boolean ours = !sent.path(McpNames.META).equals(bare.path(McpNames.META));
        return new UpstreamSpan(op, ours ? sent : propagated(op, params));
    }

    private static ObjectNode propagated(McpOperation op, ObjectNode params) {
        return op.propagate(Optional.of(params)).filter(ObjectNode.class::isInstance).map(ObjectNode.class::cast)
                .orElse(params);
    }

    /**
     * {@code params} without the client's W3C trace context in {@code _meta} (a copy; the client's
     * object is not changed): its {@code tracestate} belongs to its {@code traceparent}, and must
     * not go on under the gateway's where the gateway's span carries no state of its own.
     */
    private static ObjectNode withoutTraceContext(ObjectNode params) {
        if (!(params.get(McpNames.META) instanceof ObjectNode meta)
                || RequestHeaders.TRACE_CONTEXT.stream().noneMatch(meta::has)) {
            return params;
        }
        ObjectNode copy = Json.object();
        params.properties().forEach(member -> copy.set(member.getKey(), member.getValue()));
        ObjectNode bare = meta.deepCopy();
        bare.remove(RequestHeaders.TRACE_CONTEXT);
        copy.set(McpNames.META, bare);
        return copy;
    }

    /** The params to send upstream: the client's, with this span's context in {@code _meta}. */
    public ObjectNode sent() {
        return sent;
    }

    /** The request went out under this id on the upstream connection. */
    public void sentAs(RequestId id) {
        op.attribute(McpNames.JSONRPC_REQUEST_ID, id.toString());
    }

    /** The upstream answered with a result. */
    public void answered(JsonNode result) {
        op.end(Outcome.ofResult(result));
    }

    /** The upstream answered with a JSON-RPC error: its code only, its message is the incident's. */
    public void errorAnswer(int code) {
        op.end(new Outcome.RpcError(code, Optional.empty(), Optional.empty(), SanitizedMessage.none()));
    }

    /** No answer came (it timed out, the connection was lost or never made): recorded as {@code code} under {@code ref}. */
    public void unanswered(ErrorCode code, Ref ref) {
        op.attribute(McpNames.WARDEN_ERROR_CODE, code.name()).attribute(McpNames.WARDEN_REF, ref.value());
        op.end(new Outcome.Unanswered(code == ErrorCode.TIMEOUT ? Outcome.Reason.TIMEOUT
                : Outcome.Reason.CONNECTION_CLOSED));
    }

    /** The connection was found down as the request was to go: not sent (the call goes on another way). */
    public void notSent() {
        op.end(new Outcome.Unanswered(Outcome.Reason.CONNECTION_CLOSED));
    }

    /** The client gave up on its request: this one was cancelled upstream. */
    public void cancelled() {
        op.end(new Outcome.Unanswered(Outcome.Reason.CANCELLED));
    }
}
