package dev.warden.gateway.internal.tracing;

import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.session.RequestContext;
import dev.warden.telemetry.Channel;
import dev.warden.telemetry.McpNames;
import dev.warden.telemetry.McpOperation;
import dev.warden.telemetry.McpTelemetry;
import dev.warden.telemetry.Outcome;
import io.opentelemetry.context.Context;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The CLIENT span of a parked call's round this replica takes to the replica that holds the call,
 * a child of the round's SERVER span here. Its context goes in the forwarded round's {@code _meta}
 * (in place of the client's), so the holder's SERVER span for the round, and the upstream call it
 * continues, stay in the client's one trace. It carries {@code warden.replica}, the holder's id.
 */
public final class ForwardedRoundSpan {

    private final McpOperation op;
    private final Optional<JsonNode> params;

    private ForwardedRoundSpan(McpOperation op, Optional<JsonNode> params) {
        this.op = op;
        this.params = params;
    }

    /** Starts the span of {@code ctx}'s round going to {@code owner}, under the context current here. */
    public static ForwardedRoundSpan start(McpTelemetry telemetry, RequestContext ctx, String owner) {
        McpOperation op = telemetry.startClient(new JsonRpcMessage.Request(ctx.id(), ctx.method(), ctx.params(),
                Map.of()), Channel.inProcess(), Context.current());
        op.attribute(McpNames.WARDEN_REPLICA, owner);
        return new ForwardedRoundSpan(op, op.propagate(ctx.params()));
    }

    /** The round's params to forward: the client's, with this span's context in {@code _meta}. */
    public Optional<JsonNode> params() {
        return params;
    }

    /** The holder answered with a result. */
    public void answered(JsonNode result) {
        op.end(Outcome.ofResult(result));
    }

    /** No result came back: the holder's error, its loss, or the bus's. */
    public void failed() {
        op.end(new Outcome.Unanswered(Outcome.Reason.OTHER));
    }
}
