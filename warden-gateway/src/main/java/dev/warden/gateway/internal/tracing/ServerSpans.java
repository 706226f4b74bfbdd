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
import dev.warden.telemetry.McpTelemetry;
import dev.warden.telemetry.SessionTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;

/**
 * The SERVER span of each message one client sends through the gateway: the session's telemetry
 * ({@link SessionTelemetry}) as its observer, starting the span before anything handles the
 * message, its parent the context in {@code _meta}, else the W3C headers of the HTTP request that
 * carried it ({@link Transport#requestHeaders}), and ending it with the answer exactly as written,
 * so the code, ref and message are those the client received. The gateway adds what it knows of
 * each request while its handler runs: the span, as the parent of the upstream calls made for it
 * ({@link #of}), and the upstream it went to.
 */
public final class ServerSpans implements SessionObserver {

    private final SessionObserver sessions;
    /** The context of each request in flight, with its span: the parent of its upstream calls. */
    private final Map<RequestId, Context> open = new ConcurrentHashMap<>();
    private final Channel base;
    /**
     * The channel with each version a message spoke, built once rather than at every message: the
     * telemetry's labels are found by it. Only versions Warden knows, so a handful at most.
     */
    private final Map<String, Channel> spokenIn = new ConcurrentHashMap<>();
    /** The version this client and the gateway agreed at initialize, once answered. */
    private volatile Optional<String> version = Optional.empty();

    public ServerSpans(McpTelemetry telemetry, Transport downstream) {
        Channel base = Channel.of(downstream);
        this.base = base;
        // Each request's HTTP headers are looked up by its id as its span starts: nothing handed over.
        this.sessions = SessionTelemetry.observer(telemetry, this::channel, downstream);
    }

    /** The channel of {@code message}: the base, with the version it speaks when one is known. */
    private Channel channel(JsonRpcMessage message) {
        Optional<String> spoken = spoken(message);
        if (spoken.isEmpty()) {
            return base;
        }
        Channel kept = spokenIn.get(spoken.get());
        return kept != null ? kept : spokenIn.computeIfAbsent(spoken.get(), base::withMcpProtocolVersion);
    }

    @Override
    public Incoming received(JsonRpcMessage message) {
        Incoming span = sessions.received(message);
        if (!(message instanceof JsonRpcMessage.Request request)) {
            return span;
        }
        return new Incoming() {
            @Override
            public <T> T during(Callable<T> work) throws Exception {
                return span.during(() -> {
                    open.put(request.id(), Context.current()); // the span's, current in here
                    return work.call();
                });
            }

            @Override
            public void ended(Optional<JsonRpcMessage.Response> answer) {
                open.remove(request.id());
                answer.ifPresent(ServerSpans.this::agreed);
                span.ended(answer);
            }
        };
    }

    /** The context of {@code ctx}'s request, with its span: the parent of the upstream calls made for it. */
    public Context of(RequestContext ctx) {
        return open.getOrDefault(ctx.id(), Context.root());
    }

    /**
     * The request went to {@code upstream}: said on its span, unless it is a listing, which every
     * upstream may answer a part of.
     */
    public void upstream(RequestContext ctx, String upstream) {
        if (!ctx.method().endsWith("/list")) {
            Span.fromContext(of(ctx)).setAttribute(McpNames.WARDEN_UPSTREAM, upstream);
        }
    }

    /**
     * The channel of the client's session, once its initialize was answered (the version agreed):
     * what {@code mcp.server.session.duration} is recorded with; empty when there was no session.
     */
    public Optional<Channel> session() {
        return version.map(v -> spokenIn.computeIfAbsent(v, base::withMcpProtocolVersion));
    }

    /** The version a message speaks: its own (a stateless one names it), else the one agreed at initialize. */
    private Optional<String> spoken(JsonRpcMessage message) {
        Optional<JsonNode> params = message instanceof JsonRpcMessage.Request r ? r.params()
                : message instanceof JsonRpcMessage.Notification n ? n.params() : Optional.empty();
        // Only a version Warden knows: a made-up one would be the caller's free text on every span.
        return StatelessRequests.requestedVersion(params).flatMap(ProtocolVersion::fromWire).map(ProtocolVersion::wire)
                .or(() -> version);
    }

    /** The initialize result names the version agreed: the spans that follow carry it. */
    private void agreed(JsonRpcMessage.Response answer) {
        if (version.isEmpty() && answer instanceof JsonRpcMessage.Success s
                && s.result().path("protocolVersion").isString()) {
            version = ProtocolVersion.fromWire(s.result().path("protocolVersion").stringValue())
                    .map(ProtocolVersion::wire);
        }
    }
}
