package dev.warden.server;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Completion;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.Logging;
import dev.warden.core.mcp.Prompts;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.mcp.Resources;
import dev.warden.core.mcp.Tools;
import dev.warden.core.session.RequestContext;
import dev.warden.core.session.Session;
import dev.warden.core.transport.Transport;
import dev.warden.server.internal.Params;
import dev.warden.server.internal.PromptRequests;
import dev.warden.server.internal.ResourceRequests;
import dev.warden.server.internal.ToolCalls;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One client connected to an {@link McpServer}: the lifecycle (version negotiation, nothing but
 * ping before {@code initialize}), the log level the client chose, and the session underneath.
 */
public final class ServerConnection implements AutoCloseable {

    private final McpServer server;
    private final Session session;
    private volatile Optional<ProtocolVersion> version = Optional.empty();
    private volatile Optional<ObjectNode> clientCapabilities = Optional.empty();
    private volatile Logging.Level logLevel = Logging.Level.INFO;
    private final Set<String> subscriptions = ConcurrentHashMap.newKeySet();

    ServerConnection(McpServer server, Transport transport) {
        this.server = server;
        ToolCalls tools = new ToolCalls(server, this);
        ResourceRequests resources = new ResourceRequests(server, this);
        PromptRequests prompts = new PromptRequests(server);
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
        this.session = builder.build();
        session.gate(method -> version.isPresent() || Lifecycle.INITIALIZE.equals(method) ? Optional.empty()
                : Optional.of(ProtocolException.invalidRequest(
                        "Invalid request: the session has not been initialized")));
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
        Lifecycle.ServerCapabilities caps = new Lifecycle.ServerCapabilities(
                server.tools().isEmpty() ? Optional.empty() : Optional.of(new Lifecycle.ListChanged(false)),
                server.resources().isEmpty() && server.templates().isEmpty() ? Optional.empty()
                        : Optional.of(new Lifecycle.ResourcesCapability(server.resourceSubscriptions(), false)),
                server.prompts().isEmpty() ? Optional.empty() : Optional.of(new Lifecycle.ListChanged(false)),
                Optional.of(Json.object()),
                server.completion().map(c -> Json.object()),
                Optional.empty());
        JsonNode result = Json.tree(new Lifecycle.InitializeResult(negotiated.wire(), caps, server.info(),
                server.instructions()));
        version = Optional.of(negotiated);
        return result;
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

    /** Sends a trusted log message to the client if its level allows it. */
    public void log(Logging.Level level, String logger, String trustedMessage) {
        if (!level.atLeast(logLevel) || session.isClosed()) {
            return;
        }
        try {
            session.notify(Logging.MESSAGE, Json.tree(new Logging.MessageParams(level, Optional.of(logger),
                    Json.mapper().getNodeFactory().stringNode(trustedMessage))));
        } catch (RuntimeException e) {
            // the client went away; logging is best effort
        }
    }
}
