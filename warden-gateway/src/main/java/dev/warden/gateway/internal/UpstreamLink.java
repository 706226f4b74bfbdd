package dev.warden.gateway.internal;

import dev.warden.client.McpClient;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.gateway.Upstream;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The gateway's client connection to one upstream, shared by every client connection: connected
 * on first use (and again after a crash, with the upstream's backoff), its notifications fanned
 * out to the client connections, and its own requests (sampling, elicitation, roots) sent to the
 * one client connection with a request in flight to it, the only one they can be about.
 */
public final class UpstreamLink implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(UpstreamLink.class.getName());

    private final Upstream spec;
    private final ErrorPipeline pipeline;
    private final Guard guard;
    private final Object connecting = new Object();
    private volatile McpClient client;
    private volatile boolean closed;
    private final Set<ProxyConnection> connections = ConcurrentHashMap.newKeySet();
    private final ConcurrentHashMap<ProxyConnection, AtomicInteger> inFlight = new ConcurrentHashMap<>();

    public UpstreamLink(Upstream spec, ErrorPipeline pipeline, GatewayMetrics metrics) {
        this.spec = spec;
        this.pipeline = pipeline;
        this.guard = new Guard(spec.name(), spec.limits(), java.time.Clock.systemUTC());
        metrics.breaker(spec.name(), guard.breaker());
    }

    Guard guard() {
        return guard;
    }

    public Upstream spec() {
        return spec;
    }

    public String name() {
        return spec.name();
    }

    public ErrorPipeline pipeline() {
        return pipeline;
    }

    /** The connected client, connecting first if need be; throws what connecting threw. */
    McpClient client() {
        return client(Json.object());
    }

    /**
     * The connected client. The first client connection to need it decides what it declares to
     * the upstream: the sampling, elicitation and roots capabilities of that client, so servers
     * that offer tools by the client's capabilities offer what the client can use (with {@code
     * warden wrap}, exactly that client's).
     */
    McpClient client(ObjectNode clientCapabilities) {
        McpClient c = client;
        if (c != null) {
            return c;
        }
        synchronized (connecting) {
            if (client == null) {
                if (closed) {
                    throw new IllegalStateException("the gateway is closing");
                }
                // Clients reach the gateway in the session-based versions, so it speaks the newest of those
                // upstream too: logging levels and resource subscriptions then cross as they are.
                McpClient.Builder builder = McpClient.builder("warden-gateway", version())
                        .protocolVersion(dev.warden.core.mcp.ProtocolVersion.latestSessionBased())
                        .requestTimeout(spec.timeout())
                        .reconnect(spec.reconnect())
                        .onNotification((method, params) -> fanOut(method, params));
                if (clientCapabilities.has("sampling")) {
                    builder.onSampling(p -> ask("sampling/createMessage", p));
                }
                if (clientCapabilities.has("elicitation")) {
                    builder.onElicitation(p -> ask("elicitation/create", p));
                }
                if (clientCapabilities.has("roots")) {
                    builder.onRootsList(p -> ask("roots/list", p));
                }
                client = builder.connect(spec.connector());
                LOG.log(System.Logger.Level.INFO, "upstream {0} connected", spec.name());
            }
            return client;
        }
    }

    /** The client if it is connected already; never connects. */
    Optional<McpClient> connected() {
        return Optional.ofNullable(client);
    }

    private static String version() {
        String v = UpstreamLink.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    void register(ProxyConnection connection) {
        connections.add(connection);
    }

    void unregister(ProxyConnection connection) {
        connections.remove(connection);
        inFlight.remove(connection);
    }

    void enter(ProxyConnection connection) {
        inFlight.computeIfAbsent(connection, c -> new AtomicInteger()).incrementAndGet();
    }

    void leave(ProxyConnection connection) {
        inFlight.computeIfPresent(connection, (c, n) -> n.decrementAndGet() <= 0 ? null : n);
    }

    /**
     * A request from the upstream to a client: only one client connection can have caused it (one
     * with a request in flight here); with none or several it cannot be routed and is refused.
     */
    private ObjectNode ask(String method, ObjectNode params) throws Exception {
        List<ProxyConnection> candidates = inFlight.keySet().stream().toList();
        if (candidates.size() != 1) {
            throw new ProtocolException(JsonRpcError.INTERNAL_ERROR,
                    "The gateway cannot tell which client this request is for", ErrorCode.UPSTREAM_ERROR);
        }
        return candidates.get(0).askClient(method, params);
    }

    private void fanOut(String method, Optional<JsonNode> params) {
        JsonNode body = params.orElseGet(Json::object);
        if ("notifications/message".equals(method)) {
            body = pipeline.cleanNotification(body);
        }
        for (ProxyConnection connection : connections) {
            connection.fromUpstream(this, method, body);
        }
    }

    @Override
    public void close() {
        closed = true;
        McpClient c = client;
        if (c != null) {
            c.close();
        }
    }
}
