package dev.warden.server;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.mcp.Listening;
import dev.warden.core.transport.AuthenticatedPeer;
import dev.warden.core.mcp.Completion;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.Logging;
import dev.warden.core.mcp.Prompts;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.mcp.Resources;
import dev.warden.core.mcp.Tools;
import dev.warden.core.protocol.ServerHandshake;
import dev.warden.core.session.RequestContext;
import dev.warden.core.session.Session;
import dev.warden.core.transport.Transport;
import dev.warden.server.internal.Admission;
import dev.warden.server.internal.Catalog;
import dev.warden.server.internal.ConnectedClient;
import dev.warden.server.internal.ConnectionTerms;
import dev.warden.server.internal.Params;
import dev.warden.server.internal.PromptRequests;
import dev.warden.server.internal.ResourceRequests;
import dev.warden.server.internal.ServerTelemetry;
import dev.warden.server.internal.Subscriptions;
import dev.warden.server.internal.ToolCalls;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One client connected to an {@link McpServer}: the lifecycle (version negotiation, nothing but
 * ping before {@code initialize}), the log level the client chose, and the session underneath.
 * The handlers live in the {@code internal} package; this class routes methods to them.
 */
public final class ServerConnection implements AutoCloseable {

    private final Session session;
    private final ConnectedClient client = new ConnectedClient();
    private final Subscriptions subscriptions;

    ServerConnection(McpServer server, Transport transport) {
        Catalog catalog = server.catalog();
        this.subscriptions = new Subscriptions(catalog.resourceSubscriptions());
        ConnectionTerms terms = new ConnectionTerms(catalog, client);
        // An authenticated connection's incidents say who met the failure.
        ErrorBoundary boundary = transport instanceof AuthenticatedPeer peer ? server.boundary().serving(peer::caller)
                : server.boundary();
        Session.Builder builder = Session.builder(transport)
                .boundary(boundary)
                .defaultTimeout(server.requestTimeout())
                .onRequestInline(Lifecycle.INITIALIZE, terms::initialize)
                .onNotification(Lifecycle.INITIALIZED, (method, params) -> { })
                .onRequest(Logging.SET_LEVEL, terms::setLevel)
                .observer(ServerTelemetry.observer(server.telemetry(), transport, client));
        if (!catalog.tools().isEmpty()) {
            ToolCalls tools = new ToolCalls(catalog, boundary, client, server.requestStates());
            builder.onRequest(Tools.LIST, tools::list).onRequest(Tools.CALL, tools::call);
        }
        if (!catalog.resources().isEmpty() || !catalog.templates().isEmpty()) {
            ResourceRequests resources = new ResourceRequests(catalog, client);
            builder.onRequest(Resources.LIST, resources::list)
                    .onRequest(Resources.TEMPLATES_LIST, resources::templates)
                    .onRequest(Resources.READ, resources::read);
        }
        if (!catalog.prompts().isEmpty()) {
            PromptRequests prompts = new PromptRequests(catalog, client, server.requestStates());
            builder.onRequest(Prompts.LIST, prompts::list).onRequest(Prompts.GET, prompts::get);
        }
        server.completion().ifPresent(handler -> builder.onRequest(Completion.COMPLETE, ctx -> complete(handler, ctx)));
        if (catalog.resourceSubscriptions()) {
            builder.onRequest(Resources.SUBSCRIBE, subscriptions::subscribe)
                    .onRequest(Resources.UNSUBSCRIBE, subscriptions::unsubscribe);
        }
        builder.onRequest(ServerHandshake.DISCOVER, terms::discover);
        builder.onRequest(Listening.METHOD, subscriptions::listen);
        builder.resultFilter(terms::decorate);
        this.session = builder.build();
        ServerTelemetry.timed(server.telemetry(), transport, client, session.closed());
        session.gate(new Admission(catalog, client, transport)::admit);
    }

    void start() {
        session.start();
    }

    /** The negotiated version, once {@code initialize} has been answered. */
    public Optional<ProtocolVersion> protocolVersion() {
        return client.version();
    }

    /** The capabilities the client declared at {@code initialize}. */
    public Optional<ObjectNode> clientCapabilities() {
        return client.capabilities();
    }

    public Logging.Level logLevel() {
        return client.logLevel();
    }

    public CompletableFuture<Void> closed() {
        return session.closed();
    }

    @Override
    public void close() {
        session.close();
    }

    /** Whether this client subscribed to {@code uri}. */
    public boolean subscribed(String uri) {
        return subscriptions.subscribed(uri);
    }

    void resourceUpdated(String uri) {
        subscriptions.resourceUpdated(uri, session);
    }

    /** Sends a trusted log message to the client if its level allows it. */
    public void log(Logging.Level level, String logger, String trustedMessage) {
        client.log(session, level, logger, trustedMessage);
    }

    /**
     * Sends a request to the client outside any request of its own (session-based versions; e.g.
     * {@code roots/list} when the server wants the client's roots now) and waits for the answer.
     * The client must have declared the capability the method needs at {@code initialize}; a
     * refusal arrives as {@link dev.warden.core.error.PeerErrorException}, a timeout (the server's
     * request timeout) as {@link dev.warden.core.error.RequestTimeoutException}.
     */
    public ObjectNode requestClient(String method, ObjectNode params) throws Exception {
        return client.request(session, method, params);
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
}
