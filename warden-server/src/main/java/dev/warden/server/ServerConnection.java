package dev.warden.server;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Completion;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.Logging;
import dev.warden.core.mcp.Ping;
import dev.warden.core.mcp.Prompts;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.mcp.Resources;
import dev.warden.core.mcp.Tools;
import dev.warden.core.session.RequestContext;
import dev.warden.core.session.Session;
import dev.warden.core.transport.RequestHeaders;
import dev.warden.server.tool.ToolSpec;
import dev.warden.core.transport.Transport;
import dev.warden.server.internal.Params;
import dev.warden.server.internal.PromptRequests;
import dev.warden.server.internal.ResourceRequests;
import dev.warden.server.internal.ToolCalls;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One client connected to an {@link McpServer}: the lifecycle (version negotiation, nothing but
 * ping before {@code initialize}), the log level the client chose, and the session underneath.
 */
public final class ServerConnection implements AutoCloseable {

    private final McpServer server;
    private final Session session;
    private final Transport transport;
    private volatile Optional<ProtocolVersion> version = Optional.empty();
    private volatile Optional<ObjectNode> clientCapabilities = Optional.empty();
    private volatile Logging.Level logLevel = Logging.Level.INFO;
    private final Set<String> subscriptions = ConcurrentHashMap.newKeySet();

    ServerConnection(McpServer server, Transport transport) {
        this.server = server;
        this.transport = transport;
        ToolCalls tools = new ToolCalls(server, this, server.requestStates());
        ResourceRequests resources = new ResourceRequests(server, this);
        PromptRequests prompts = new PromptRequests(server, this, server.requestStates());
        Session.Builder builder = Session.builder(transport)
                .boundary(server.boundary())
                .defaultTimeout(server.requestTimeout())
                .onRequestInline(Lifecycle.INITIALIZE, this::initialize)
                .onNotification(Lifecycle.INITIALIZED, (method, params) -> { })
                .onRequest(Logging.SET_LEVEL, this::setLevel);
        if (!server.tools().isEmpty()) {
            builder.onRequest(Tools.LIST, tools::list).onRequest(Tools.CALL, tools::call);
        }
        if (!server.resources().isEmpty() || !server.templates().isEmpty()) {
            builder.onRequest(Resources.LIST, resources::list)
                    .onRequest(Resources.TEMPLATES_LIST, resources::templates)
                    .onRequest(Resources.READ, resources::read);
        }
        if (!server.prompts().isEmpty()) {
            builder.onRequest(Prompts.LIST, prompts::list).onRequest(Prompts.GET, prompts::get);
        }
        server.completion().ifPresent(handler -> builder.onRequest(Completion.COMPLETE, ctx -> complete(handler, ctx)));
        if (server.resourceSubscriptions()) {
            builder.onRequest(Resources.SUBSCRIBE, ctx -> {
                subscriptions.add(subscriptionUri(ctx));
                return Json.object();
            }).onRequest(Resources.UNSUBSCRIBE, ctx -> {
                subscriptions.remove(subscriptionUri(ctx));
                return Json.object();
            });
        }
        builder.onRequest(DISCOVER, ctx -> discover());
        builder.onRequest(LISTEN, this::listen);
        builder.resultFilter(this::decorate);
        this.session = builder.build();
        session.gate(this::admit);
    }

    static final String DISCOVER = "server/discover";
    static final String LISTEN = "subscriptions/listen";
    static final String META_SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId";

    /** Open listen streams of this connection: subscription id to the resource URIs it follows. */
    private final Map<RequestId, Set<String>> listeners = new ConcurrentHashMap<>();

    /**
     * {@code subscriptions/listen} (2026-07-28): acknowledges the subset of the filter this server
     * honours (resource updates when it offers subscriptions; its lists do not change), then keeps
     * the request open, sending matching notifications tagged with the subscription id, until the
     * client cancels it (closes the stream, or notifications/cancelled on stdio).
     */
    private JsonNode listen(RequestContext context) throws InterruptedException {
        ObjectNode params = Params.object(context.params());
        JsonNode wanted = params.path("notifications");
        ObjectNode agreed = Json.object();
        Set<String> uris = ConcurrentHashMap.newKeySet();
        if (server.resourceSubscriptions() && wanted.path("resourceSubscriptions").isArray()) {
            ArrayNode list = agreed.putArray("resourceSubscriptions");
            for (JsonNode uri : wanted.get("resourceSubscriptions")) {
                if (uri.isString() && uris.size() < 1000) {
                    uris.add(uri.stringValue());
                    list.add(uri.stringValue());
                }
            }
        }
        ObjectNode ack = Json.object();
        ack.putObject("_meta").set(META_SUBSCRIPTION, context.id().toJson());
        ack.set("notifications", agreed);
        listeners.put(context.id(), uris);
        try {
            session.notify(ACKNOWLEDGED, ack, context.id());
            while (!context.cancelled() && !session.isClosed()) {
                Thread.sleep(1000); // the work happens in resourceUpdated; this only holds the request open
            }
            throw new InterruptedException("the subscription was cancelled");
        } finally {
            listeners.remove(context.id());
        }
    }

    static final String ACKNOWLEDGED = "notifications/subscriptions/acknowledged";

    /** Methods 2026-07-28 removed: a stateless request for one is an unknown method. */
    private static final Set<String> REMOVED_IN_STATELESS = Set.of(Lifecycle.INITIALIZE, Ping.METHOD,
            Logging.SET_LEVEL, Resources.SUBSCRIBE, Resources.UNSUBSCRIBE);

    /**
     * Before initialize only initialize, ping and server/discover run; a request that names a
     * stateless version in its {@code _meta} (2026-07-28 on) needs no initialize, but must name
     * a version this server speaks.
     */
    private Optional<ProtocolException> admit(JsonRpcMessage.Request request) {
        Optional<String> requested = requestedVersion(request.params());
        if (requested.isPresent()) {
            if (ProtocolVersion.fromWire(requested.get()).filter(ProtocolVersion::stateless).isEmpty()) {
                return Optional.of(ProtocolException.unsupportedVersion(requested.get(),
                        ProtocolVersion.supportedWire()));
            }
            if (meta(request.params()).map(m -> m.get(ProtocolVersion.META_CLIENT_CAPABILITIES))
                    .filter(JsonNode::isObject).isEmpty()) {
                return Optional.of(ProtocolException.invalidMeta(
                        "Invalid params: _meta must carry io.modelcontextprotocol/clientCapabilities"));
            }
            if (REMOVED_IN_STATELESS.contains(request.method())) {
                return Optional.of(ProtocolException.methodNotFound());
            }
            return paramHeaderMismatch(request);
        }
        if (version.isPresent() || Lifecycle.INITIALIZE.equals(request.method()) || DISCOVER.equals(request.method())
                || Ping.METHOD.equals(request.method())) {
            return Optional.empty();
        }
        return Optional.of(ProtocolException.invalidRequest("Invalid request: the session has not been initialized"));
    }

    /**
     * Over HTTP, a call's {@code Mcp-Param-*} headers must agree with the arguments the tool
     * marks with {@code x-mcp-header} (a proxy may have routed on them): else -32020, HTTP 400.
     */
    private Optional<ProtocolException> paramHeaderMismatch(JsonRpcMessage.Request request) {
        if (!(transport instanceof RequestHeaders headers) || !Tools.CALL.equals(request.method())) {
            return Optional.empty();
        }
        JsonNode params = request.params().orElse(Json.object());
        ToolSpec tool = server.tools().get(params.path("name").asString(""));
        if (tool == null || tool.paramHeaders().isEmpty()) {
            return Optional.empty();
        }
        return tool.paramHeaders().mismatch(headers::header, params.path("arguments")).map(header ->
                ProtocolException.headerMismatch("Header mismatch: " + header
                        + " is missing, malformed or differs from the arguments"));
    }

    /** The {@code _meta} protocol version a request names, as sent. */
    static Optional<String> requestedVersion(Optional<JsonNode> params) {
        return params.map(p -> p.get("_meta")).filter(JsonNode::isObject)
                .map(m -> m.get(ProtocolVersion.META_VERSION)).filter(JsonNode::isString).map(JsonNode::stringValue);
    }

    private static Optional<ObjectNode> meta(Optional<JsonNode> params) {
        return params.map(p -> p.get("_meta")).filter(ObjectNode.class::isInstance).map(ObjectNode.class::cast);
    }

    /** The version a request speaks: its own (stateless versions) or the session's. */
    public Optional<ProtocolVersion> versionOf(RequestContext context) {
        Optional<ProtocolVersion> own = requestedVersion(context.params()).flatMap(ProtocolVersion::fromWire)
                .filter(ProtocolVersion::stateless);
        return own.isPresent() ? own : version;
    }

    /** The client's capabilities for this request: from its {@code _meta} (stateless), else from initialize. */
    public Optional<ObjectNode> clientCapabilities(RequestContext context) {
        if (requestedVersion(context.params()).isPresent()) {
            return meta(context.params()).map(m -> m.get(ProtocolVersion.META_CLIENT_CAPABILITIES))
                    .filter(ObjectNode.class::isInstance).map(ObjectNode.class::cast);
        }
        return clientCapabilities;
    }

    private JsonNode discover() {
        ObjectNode result = Json.object();
        ArrayNode versions = result.putArray("supportedVersions");
        ProtocolVersion.supportedWire().forEach(versions::add);
        result.set("capabilities", Json.tree(capabilities()));
        server.instructions().ifPresent(i -> result.put("instructions", i));
        return result;
    }

    /** Results of stateless requests carry resultType, the server's identity and, where cacheable, a TTL. */
    private JsonNode decorate(JsonRpcMessage.Request request, JsonNode result) {
        if (requestedVersion(request.params()).isEmpty() && !DISCOVER.equals(request.method())) {
            return result;
        }
        return dev.warden.core.mcp.StatelessResults.decorate(request.method(), result, Json.tree(server.info()));
    }

    void start() {
        session.start();
    }

    public Session session() {
        return session;
    }

    /** The negotiated version, once {@code initialize} has been answered. */
    public Optional<ProtocolVersion> protocolVersion() {
        return version;
    }

    public Optional<ObjectNode> clientCapabilities() {
        return clientCapabilities;
    }

    public Logging.Level logLevel() {
        return logLevel;
    }

    public CompletableFuture<Void> closed() {
        return session.closed();
    }

    @Override
    public void close() {
        session.close();
    }

    private JsonNode initialize(RequestContext context) {
        if (version.isPresent()) {
            throw ProtocolException.invalidRequest("Invalid request: the session is already initialized");
        }
        ObjectNode params = Params.object(context.params());
        String requested = Params.requiredString(params, "protocolVersion");
        ProtocolVersion negotiated = ProtocolVersion.negotiate(requested);
        JsonNode capabilities = params.get("capabilities");
        clientCapabilities = Optional.of(capabilities instanceof ObjectNode o ? o.deepCopy() : Json.object());
        session.allowBatches(negotiated.allowsBatches());
        Lifecycle.ServerCapabilities caps = capabilities();
        JsonNode result = Json.tree(new Lifecycle.InitializeResult(negotiated.wire(), caps, server.info(),
                server.instructions()));
        version = Optional.of(negotiated);
        return result;
    }

    private Lifecycle.ServerCapabilities capabilities() {
        return new Lifecycle.ServerCapabilities(
                server.tools().isEmpty() ? Optional.empty() : Optional.of(new Lifecycle.ListChanged(false)),
                server.resources().isEmpty() && server.templates().isEmpty() ? Optional.empty()
                        : Optional.of(new Lifecycle.ResourcesCapability(server.resourceSubscriptions(), false)),
                server.prompts().isEmpty() ? Optional.empty() : Optional.of(new Lifecycle.ListChanged(false)),
                Optional.of(Json.object()),
                server.completion().map(c -> Json.object()),
                Optional.empty());
    }

    private JsonNode setLevel(RequestContext context) {
        ObjectNode params = Params.object(context.params());
        String level = Params.requiredString(params, "level");
        try {
            logLevel = Logging.Level.fromWire(level);
        } catch (IllegalArgumentException e) {
            throw ProtocolException.invalidParams("Invalid params: level must be one of debug, info, notice, "
                    + "warning, error, critical, alert, emergency");
        }
        return Json.object();
    }

    private static String subscriptionUri(RequestContext context) {
        return Params.requiredString(Params.object(context.params()), "uri");
    }

    /** Whether this client subscribed to {@code uri}. */
    public boolean subscribed(String uri) {
        return subscriptions.contains(uri);
    }

    void resourceUpdated(String uri) {
        listeners.forEach((subscription, uris) -> {
            if (uris.contains(uri)) {
                ObjectNode params = Json.object();
                params.putObject("_meta").set(META_SUBSCRIPTION, subscription.toJson());
                params.put("uri", uri);
                try {
                    session.notify(Resources.UPDATED, params, subscription);
                } catch (RuntimeException e) {
                    // the subscriber went away; its request ends with the connection
                }
            }
        });
        if (subscriptions.contains(uri) && !session.isClosed()) {
            ObjectNode params = Json.object();
            params.put("uri", uri);
            try {
                session.notify(Resources.UPDATED, params);
            } catch (RuntimeException e) {
                // the client went away
            }
        }
    }

    private static JsonNode complete(CompletionHandler handler, RequestContext context) throws Exception {
        ObjectNode params = Params.object(context.params());
        JsonNode ref = params.get("ref");
        JsonNode argument = params.get("argument");
        if (!(ref instanceof ObjectNode refObject) || !(argument instanceof ObjectNode arg)
                || !arg.path("name").isString() || !arg.path("value").isString()) {
            throw ProtocolException.invalidParams(
                    "Invalid params: completion needs ref and argument {name, value}");
        }
        JsonNode ctx = params.get("context");
        Completion.CompleteParams request = new Completion.CompleteParams(refObject,
                new Completion.ArgumentValue(arg.get("name").stringValue(), arg.get("value").stringValue()),
                ctx instanceof ObjectNode o ? Optional.of(o) : Optional.empty());
        return Json.tree(new Completion.CompleteResult(handler.complete(request)));
    }

    /**
     * Sends a trusted log message about {@code context}'s request: for stateless requests only if
     * the request asked for logs ({@code _meta} logLevel) and at that level or above; otherwise at
     * the session's level.
     */
    public void log(RequestContext context, Logging.Level level, String logger, String trustedMessage) {
        if (requestedVersion(context.params()).isPresent()) {
            Optional<Logging.Level> wanted = meta(context.params()).map(m -> m.get(ProtocolVersion.META_LOG_LEVEL))
                    .filter(JsonNode::isString).flatMap(l -> {
                        try {
                            return Optional.of(Logging.Level.fromWire(l.stringValue()));
                        } catch (IllegalArgumentException e) {
                            return Optional.empty();
                        }
                    });
            if (wanted.isEmpty() || !level.atLeast(wanted.get()) || session.isClosed()) {
                return;
            }
            send(level, logger, trustedMessage);
            return;
        }
        log(level, logger, trustedMessage);
    }

    private void send(Logging.Level level, String logger, String trustedMessage) {
        try {
            session.notify(Logging.MESSAGE, Json.tree(new Logging.MessageParams(level, Optional.of(logger),
                    Json.mapper().getNodeFactory().stringNode(trustedMessage))));
        } catch (RuntimeException e) {
            // the client went away; logging is best effort
        }
    }

    /** Sends a trusted log message to the client if its level allows it. */
    public void log(Logging.Level level, String logger, String trustedMessage) {
        if (!level.atLeast(logLevel) || session.isClosed()) {
            return;
        }
        send(level, logger, trustedMessage);
    }
}
