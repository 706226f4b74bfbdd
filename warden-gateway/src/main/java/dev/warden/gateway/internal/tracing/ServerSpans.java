package dev.warden.gateway.internal.tracing;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.session.RequestContext;
import dev.warden.core.transport.RequestHeaders;
import dev.warden.core.transport.Transport;
import dev.warden.telemetry.Channel;
import dev.warden.telemetry.McpNames;
import dev.warden.telemetry.McpOperation;
import dev.warden.telemetry.McpTelemetry;
import dev.warden.telemetry.Outcome;
import io.opentelemetry.context.Context;
import java.util.ArrayList;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The SERVER span of each request one client sends through the gateway. It starts when a handler
 * takes the request ({@link #of}: the thread-less {@code tools/call} and the blocking one share
 * it), its parent the context in the request's {@code _meta}, else the W3C headers of the HTTP
 * request that carried it; the upstream calls made for it are its children ({@link UpstreamSpan}).
 * It ends with the answer the client received, as the session sent it ({@link #watching}): the
 * code, the ref and the message on the wire, also where the session's renderer gave the ref. A
 * request that gets no answer (cancelled, or its connection gone) ends unanswered.
 */
public final class ServerSpans {

    private final McpTelemetry telemetry;
    private final Transport downstream;
    private final Channel channel;
    private final Map<RequestId, McpOperation> open = new ConcurrentHashMap<>();
    /** The version this client and the gateway agreed at initialize, once answered. */
    private volatile Optional<String> version = Optional.empty();

    public ServerSpans(McpTelemetry telemetry, Transport downstream) {
        this.telemetry = telemetry;
        this.downstream = downstream;
        this.channel = Channels.of(downstream);
    }

    /** The transport the client's session is to send on: {@code downstream}, its answers read here on the way. */
    public Transport watching() {
        return new AnswerWatch(downstream, this);
    }

    /** The span of {@code ctx}'s request, started the first time it is asked for. */
    public McpOperation of(RequestContext ctx) {
        return open.computeIfAbsent(ctx.id(), id -> start(ctx));
    }

    /**
     * The request went to {@code upstream}: said on its span, unless it is a listing, which every
     * upstream may answer a part of.
     */
    public void upstream(RequestContext ctx, String upstream) {
        if (!ctx.method().endsWith("/list")) {
            of(ctx).attribute(McpNames.WARDEN_UPSTREAM, upstream);
        }
    }

    private McpOperation start(RequestContext ctx) {
        JsonRpcMessage.Request request = new JsonRpcMessage.Request(ctx.id(), ctx.method(), ctx.params(), Map.of());
        Optional<String> agreed = ctx.params().map(p -> p.path(McpNames.META).path(ProtocolVersion.META_VERSION))
                .filter(JsonNode::isString).map(JsonNode::stringValue).or(() -> version);
        return telemetry.startServer(request, agreed.map(channel::withMcpProtocolVersion).orElse(channel),
                fromHeaders(ctx.id()));
    }

    /**
     * The context of the HTTP request's trace headers. They carry the same W3C fields as
     * {@code _meta} (SEP-414), so the application's propagators read them as a {@code _meta} would.
     */
    private Context fromHeaders(RequestId id) {
        Optional<RequestHeaders> headers = downstream.requestHeaders(id);
        if (headers.isEmpty()) {
            return Context.root();
        }
        ObjectNode params = Json.object();
        ObjectNode meta = params.putObject(McpNames.META);
        for (String field : RequestHeaders.TRACE_CONTEXT) {
            headers.get().header(field).ifPresent(value -> meta.put(field, value));
        }
        return telemetry.extract(params, Context.root());
    }

    /** The session sent {@code answer}: the span of its request ends with it. */
    void answered(JsonRpcMessage.Response answer) {
        Optional<RequestId> id = switch (answer) {
            case JsonRpcMessage.Success s -> Optional.of(s.id());
            case JsonRpcMessage.Failure f -> f.id();
        };
        if (id.isEmpty() || open.isEmpty()) {
            return;
        }
        McpOperation op = open.remove(id.get());
        if (op == null) {
            return; // refused before any handler took it (an unknown method, say): no span was started
        }
        if (answer instanceof JsonRpcMessage.Success s && s.result().path("protocolVersion").isString()
                && version.isEmpty()) {
            version = Optional.of(s.result().path("protocolVersion").stringValue()); // the initialize result
        }
        op.end(Outcome.sent(answer));
    }

    /** Whether answers are awaited: only then is a batch's answer read. */
    boolean awaiting() {
        return !open.isEmpty();
    }

    /** The session is done with {@code request}; if no answer went out, the client cancelled it. */
    void ended(RequestId request) {
        McpOperation op = open.remove(request);
        if (op != null) {
            op.end(new Outcome.Unanswered(Outcome.Reason.CANCELLED));
        }
    }

    /** The connection closed: what is still open will get no answer. */
    void closed() {
        for (RequestId id : new ArrayList<>(open.keySet())) {
            McpOperation op = open.remove(id);
            if (op != null) {
                op.end(new Outcome.Unanswered(Outcome.Reason.CONNECTION_CLOSED));
            }
        }
    }
}
