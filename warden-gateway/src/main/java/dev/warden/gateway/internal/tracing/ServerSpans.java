package dev.warden.gateway.internal.tracing;

import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.protocol.StatelessRequests;
import dev.warden.core.session.RequestContext;
import dev.warden.core.session.SessionObserver;
import dev.warden.core.transport.Transport;
import dev.warden.telemetry.Channel;
import dev.warden.telemetry.McpNames;
import dev.warden.telemetry.McpOperation;
import dev.warden.telemetry.McpTelemetry;
import dev.warden.telemetry.Outcome;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;

/**
 * The SERVER span of each message one client sends through the gateway, as its session's observer:
 * it starts before anything handles the message, its parent the context in the message's {@code
 * _meta}, else the W3C headers of the HTTP request that carried it ({@link
 * Transport#requestHeaders}); the handler runs with it current, and the upstream calls made for
 * the request are its children ({@link UpstreamSpan}, found by the request's id). It ends with the
 * answer exactly as the session writes it, so the code, ref and message are those the client
 * received, also where the session's renderer gave the ref; a request that gets no answer ends
 * unanswered.
 */
public final class ServerSpans implements SessionObserver {

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

    @Override
    public Incoming received(JsonRpcMessage message) {
        Optional<RequestId> id = message instanceof JsonRpcMessage.Request r ? Optional.of(r.id()) : Optional.empty();
        McpOperation op = telemetry.startServer(message, channelFor(message),
                id.map(this::fromHeaders).orElseGet(Context::root));
        id.ifPresent(i -> open.put(i, op));
        return new Incoming() {
            @Override
            public <T> T during(Callable<T> work) throws Exception {
                try (Scope ignored = op.makeCurrent()) {
                    return work.call();
                }
            }

            @Override
            public void ended(Optional<JsonRpcMessage.Response> answer) {
                id.ifPresent(i -> open.remove(i, op));
                answer.ifPresent(ServerSpans.this::agreed);
                op.end(answer.map(Outcome::sent).orElseGet(() -> id.isPresent()
                        ? new Outcome.Unanswered(Outcome.Reason.CANCELLED) : Outcome.ok()));
            }
        };
    }

    /** The span of {@code ctx}'s request: the parent of the upstream calls made for it. */
    public McpOperation of(RequestContext ctx) {
        // Every request is received (and its span open) before a handler has it; this is a fallback.
        return open.computeIfAbsent(ctx.id(), id -> telemetry.startServer(
                new JsonRpcMessage.Request(id, ctx.method(), ctx.params(), Map.of()), channel, fromHeaders(id)));
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

    /** The version a message speaks: its own (a stateless one names it), else the one agreed at initialize. */
    private Channel channelFor(JsonRpcMessage message) {
        Optional<JsonNode> params = switch (message) {
            case JsonRpcMessage.Request r -> r.params();
            case JsonRpcMessage.Notification n -> n.params();
            case JsonRpcMessage.Response r -> Optional.empty();
        };
        // Only a version Warden knows: a made-up one would be the caller's free text on every span.
        Optional<String> own = StatelessRequests.requestedVersion(params).flatMap(ProtocolVersion::fromWire)
                .map(ProtocolVersion::wire);
        return own.or(() -> version).map(channel::withMcpProtocolVersion).orElse(channel);
    }

    /** The initialize result names the version agreed: the spans that follow carry it. */
    private void agreed(JsonRpcMessage.Response answer) {
        if (version.isEmpty() && answer instanceof JsonRpcMessage.Success s
                && s.result().path("protocolVersion").isString()) {
            version = ProtocolVersion.fromWire(s.result().path("protocolVersion").stringValue())
                    .map(ProtocolVersion::wire);
        }
    }

    /** The context of the trace headers of the HTTP request that carried {@code id}, if it sent any. */
    private Context fromHeaders(RequestId id) {
        return downstream.requestHeaders(id).map(h -> telemetry.extractHeaders(h::header, Context.root()))
                .orElseGet(Context::root);
    }
}
