package dev.warden.client;

import dev.warden.client.http.StreamableHttpTransport;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Prompts;
import dev.warden.core.mcp.Tools;
import dev.warden.core.session.SessionObserver;
import dev.warden.core.transport.RequestHeaders;
import dev.warden.core.transport.Transport;
import dev.warden.telemetry.Channel;
import dev.warden.telemetry.McpSession;
import dev.warden.telemetry.McpTelemetry;
import dev.warden.telemetry.SessionTelemetry;
import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;

/**
 * One connection's telemetry. Its channel as its spans name it: stdio is {@code pipe}; Streamable
 * HTTP is {@code tcp} with the endpoint's host and port as {@code server.address}/{@code
 * server.port} and the session the server gave as {@code mcp.session.id}; the version once
 * negotiated. A tool or prompt names a span only once the server listed it. Over HTTP, the trace
 * headers of a request are the context this telemetry put in its {@code _meta}, nothing else.
 * Public only for {@link #channelOf}, the one place a client connection's {@link Channel} is built
 * from its transport.
 */
public final class ClientTelemetry {

    /** Names kept from the server's listings at most: a server listing more is no reason to grow. */
    private static final int MAX_LISTED = 10_000;

    private final Transport transport;
    private final Channel base;
    private volatile Optional<String> version = Optional.empty();
    /** The last channel named by a session: the id's digest is made once per session, not per message. */
    private volatile Optional<Named> named = Optional.empty();
    private final Set<String> tools = ConcurrentHashMap.newKeySet();
    private final Set<String> prompts = ConcurrentHashMap.newKeySet();
    /** The trace context put in each request's {@code _meta}, until its POST takes it. */
    private final Map<RequestId, Map<String, String>> injected = new ConcurrentHashMap<>();

    private record Named(String id, Optional<String> version, Channel channel) {
    }

    /** This connection's session, timed from its start ({@code mcp.client.session.duration}). */
    private final McpSession timed;

    ClientTelemetry(Transport transport, McpTelemetry sessions) {
        this.transport = transport;
        this.base = channelOf(transport);
        this.timed = sessions.startClientSession();
    }

    SessionObserver observer(McpTelemetry telemetry, boolean traceHeadersFromMeta) {
        if (transport instanceof StreamableHttpTransport http) {
            http.traceHeaders(traceHeadersFromMeta ? StreamableHttpTransport::traceHeadersFromMeta
                    : request -> Optional.ofNullable(injected.remove(request.id())).orElse(Map.of()));
        }
        SessionObserver spans = SessionTelemetry.observer(telemetry.knowing(this::listed), message -> channel());
        if (spans == SessionObserver.NONE) {
            return spans;
        }
        return new SessionObserver() {
            @Override
            public Incoming received(JsonRpcMessage message) {
                return spans.received(message);
            }

            @Override
            public JsonRpcMessage.Notification notifying(JsonRpcMessage.Notification notification) {
                return spans.notifying(notification);
            }

            @Override
            public Outgoing sending(JsonRpcMessage.Request request) {
                Outgoing traced = spans.sending(request);
                Map<String, String> context = ownContext(request, traced.request());
                if (!context.isEmpty()) {
                    injected.put(request.id(), context);
                }
                Ended ended = traced.ended();
                return new Outgoing(traced.request(), new Ended() {
                    @Override
                    public void answered(JsonNode result) {
                        injected.remove(request.id());
                        learn(request.method(), result);
                        ended.answered(result);
                    }

                    @Override
                    public void failed(Throwable failure) {
                        injected.remove(request.id());
                        ended.failed(failure);
                    }
                });
            }
        };
    }

    /** The connection, its version now known to the spans that follow. */
    Connection negotiated(Connection connection) {
        version = Optional.of(connection.version().wire());
        // A stateless version has no session to time: each request stands alone.
        timed.endWhen(connection.session().closed(), () -> connection.version().stateless() ? Optional.empty()
                : Optional.of(base.withMcpProtocolVersion(connection.version().wire())));
        return connection;
    }

    private boolean listed(String method, String name) {
        return Tools.CALL.equals(method) ? tools.contains(name) : Prompts.GET.equals(method) && prompts.contains(name);
    }

    /** A listing's names: the tools and prompts the server has, which may name spans from now on. */
    private void learn(String method, JsonNode result) {
        Set<String> into = Tools.LIST.equals(method) ? tools : Prompts.LIST.equals(method) ? prompts : null;
        if (into == null) {
            return;
        }
        for (JsonNode entry : result.path(Tools.LIST.equals(method) ? "tools" : "prompts")) {
            JsonNode name = entry.path("name");
            if (name.isString() && into.size() < MAX_LISTED) {
                into.add(name.stringValue());
            }
        }
    }

    /**
     * The trace context the telemetry put in {@code traced}'s {@code _meta}: its traceparent when
     * the telemetry wrote one there (not the caller's own), with the tracestate written beside it.
     */
    private static Map<String, String> ownContext(JsonRpcMessage.Request original, JsonRpcMessage.Request traced) {
        Map<String, String> before = StreamableHttpTransport.traceHeadersFromMeta(original);
        Map<String, String> after = StreamableHttpTransport.traceHeadersFromMeta(traced);
        String traceparent = RequestHeaders.TRACE_CONTEXT.getFirst();
        if (!after.containsKey(traceparent) || Objects.equals(before.get(traceparent), after.get(traceparent))) {
            return Map.of();
        }
        return after;
    }

    private Channel channel() {
        Optional<String> negotiated = version;
        Channel channel = negotiated.map(base::withMcpProtocolVersion).orElse(base);
        if (!(transport instanceof StreamableHttpTransport http) || http.sessionId().isEmpty()) {
            return channel;
        }
        String id = http.sessionId().get();
        Named last = named.filter(n -> n.id().equals(id) && n.version().equals(negotiated)).orElse(null);
        if (last == null) {
            last = new Named(id, negotiated, channel.withSession(id));
            named = Optional.of(last);
        }
        return last.channel();
    }

    /**
     * What a connection over {@code transport} travels over, as a client's spans name it: for
     * Streamable HTTP, {@code server.address}/{@code server.port} from the endpoint's URL (the
     * scheme's port when it names none); otherwise as {@link Channel#of} says. A proxy's spans to
     * its upstreams use it too, so both name a server alike.
     */
    public static Channel channelOf(Transport transport) {
        if (!(transport instanceof StreamableHttpTransport http)) {
            return Channel.of(transport);
        }
        URI endpoint = http.endpoint();
        if (endpoint.getHost() == null) {
            return Channel.http();
        }
        int port = endpoint.getPort() >= 0 ? endpoint.getPort() : "https".equals(endpoint.getScheme()) ? 443 : 80;
        return Channel.http().withServer(endpoint.getHost(), port);
    }
}
