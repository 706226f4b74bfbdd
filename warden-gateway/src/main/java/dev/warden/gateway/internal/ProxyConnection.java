package dev.warden.gateway.internal;

import dev.warden.client.McpClient;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.Listening;
import dev.warden.core.protocol.StatelessRequests;
import dev.warden.core.sanitize.CallerInput;
import dev.warden.core.session.OutgoingRequest;
import dev.warden.core.session.RequestContext;
import dev.warden.core.session.RequestHandler;
import dev.warden.core.session.Session;
import dev.warden.core.transport.Transport;
import dev.warden.gateway.auditlog.AuditRecord;
import dev.warden.gateway.internal.access.CallerAccess;
import dev.warden.gateway.internal.audit.AuditTrail;
import dev.warden.gateway.internal.call.Services;
import dev.warden.gateway.internal.call.ToolCallFlow;
import dev.warden.gateway.internal.call.ToolCallWithoutThread;
import dev.warden.gateway.internal.call.UpstreamCalls;
import dev.warden.gateway.internal.call.UpstreamInputRounds;
import dev.warden.gateway.internal.catalog.ConnectionLinks;
import dev.warden.gateway.internal.catalog.Naming;
import dev.warden.gateway.internal.catalog.PinWatch;
import dev.warden.gateway.internal.client.CallsInFlight;
import dev.warden.gateway.internal.client.ClientProfile;
import dev.warden.gateway.internal.client.StatelessRules;
import dev.warden.gateway.internal.tracing.ServerSpans;
import dev.warden.gateway.internal.upstream.ClientConnection;
import dev.warden.gateway.internal.upstream.UpstreamLink;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One client's connection through the gateway: an MCP server towards the client, in front of one
 * or more upstreams ({@link UpstreamLink}). This class is the client's session and its wiring:
 * each method goes to the part that answers it ({@link GatewayOffer}, {@link CatalogMerge}, {@link
 * ToolCallFlow}, {@link ResourceRouting}, {@link ListenStreams}, {@link TaskRequests}, {@link OtherRequests}), each
 * request audited; the upstreams' notifications and requests come back through here to the client.
 */
public final class ProxyConnection implements ClientConnection {

    private static final System.Logger LOG = System.getLogger(ProxyConnection.class.getName());

    private final ConnectionLinks links;
    private final ClientProfile profile;
    private final Services services;
    private final CallsInFlight inFlight = new CallsInFlight();
    private final HeldNotifications held = new HeldNotifications();
    private final ResourceRouting resources;
    private final Session session;
    private final ListenStreams listens;
    private final TaskRequests tasks;
    private final ServerSpans spans;

    /**
     * @param links the upstreams of this connection (a per-client upstream gets a link of its own)
     * @param shared the gateway's shared links, in the same order: what a stateless client uses,
     *     since its requests share no connection that could own an upstream process
     */
    public ProxyConnection(Transport downstream, List<UpstreamLink> links, List<UpstreamLink> shared, Naming naming,
            Services services) {
        this.services = services;
        this.profile = new ClientProfile(downstream, services.perClient());
        this.links = new ConnectionLinks(links, shared, naming);
        this.spans = new ServerSpans(services.telemetry(), downstream);
        UpstreamCalls calls = new UpstreamCalls(profile, services, inFlight,
                new UpstreamInputRounds((method, params) -> askClient(method, params, Optional.empty())), this, spans);
        GatewayOffer offer = new GatewayOffer(this.links, profile);
        CallerAccess access = new CallerAccess(services.access(), profile::caller, services.toolScopes());
        PinWatch pins = services.pins().servedTo(profile::caller);
        CatalogMerge catalog = new CatalogMerge(this.links, services.tools(), calls, access, pins);
        ToolCallFlow tools = new ToolCallFlow(this.links, profile, services, calls, access);
        ToolCallWithoutThread toolsWithoutThread = new ToolCallWithoutThread(profile, services, inFlight, tools,
                this::auditRecord, this, spans);
        this.resources = new ResourceRouting(this.links, profile, calls, this, access, pins);
        OtherRequests other = new OtherRequests(this.links, profile, calls, resources, access);
        this.tasks = new TaskRequests(this.links, profile, calls, tools, access, services.tasks());
        this.session = Session.builder(downstream)
                .observer(spans)
                .boundary(services.boundary().serving(profile::caller))
                .defaultTimeout(this.links.first().spec().timeout())
                .onRequestInline(Lifecycle.INITIALIZE, offer::initialize)
                .onNotification(Lifecycle.INITIALIZED, (method, params) -> held.ready())
                .onRequest("tools/list", audited(catalog::listTools))
                .onRequest("tools/call", audited(tools::call))
                .onRequestAsync("tools/call", toolsWithoutThread::call)
                .onRequest("prompts/list", audited(ctx -> catalog.listNamed(ctx, "prompts")))
                .onRequest("prompts/get", audited(catalog::getPrompt))
                .onRequest("resources/list", audited(resources::listResources))
                .onRequest("resources/templates/list", audited(resources::listTemplates))
                .onRequest("resources/read", audited(resources::byResource))
                .onRequest("resources/subscribe", audited(resources::byResource))
                .onRequest("resources/unsubscribe", audited(resources::byResource))
                .onRequest("logging/setLevel", audited(other::setLevel))
                .onRequest("completion/complete", audited(other::complete))
                .onRequest("server/discover", audited(offer::discover))
                .onRequest(Listening.METHOD, audited(this::listen))
                .onRequest("tasks/get", audited(tasks::get))
                .onRequest("tasks/result", audited(tasks::result))
                .onRequest("tasks/list", audited(tasks::list))
                .onRequest("tasks/cancel", audited(tasks::cancel))
                .onOtherRequest(audited(other::forwardOther))
                .onOtherNotification(this::notifyUpstreams)
                .resultFilter(offer::decorate)
                .build();
        this.listens = new ListenStreams(session, profile, offer, resources, calls, this.links,
                services.draining());
    }

    public void start() {
        session.gate(StatelessRequests::refusal);
        links.register(this);
        // A connection that turns out stateless moves to the shared links (adopt): those are left then.
        session.closed().whenComplete((v, e) -> links.unregister(this));
        // A stateless client's requests are no session: only an initialized one is timed.
        services.telemetry().startServerSession().endWhen(session.closed(),
                () -> profile.stateless() ? Optional.empty() : spans.session());
        session.start();
    }

    public CompletableFuture<Void> closed() {
        return session.closed();
    }

    public void close() {
        session.close();
    }

    private JsonNode listen(RequestContext ctx) throws Exception {
        return listens.listen(ctx);
    }

    // ---- every request audited -----------------------------------------------------------------

    /**
     * Every request is audited ({@link AuditTrail}); a stateless one first says who its client is.
     * Incidents recorded meanwhile carry who is calling: every recorder this connection uses is
     * its view, given {@code profile::caller} ({@link ClientProfile#pipeline}).
     */
    private RequestHandler audited(RequestHandler handler) {
        return ctx -> {
            if (StatelessRules.stateless(ctx)) {
                adopt(ctx);
            }
            Optional<String> owner = services.forwarding().ownerElsewhere(ctx);
            if (owner.isPresent()) {
                // A later round of a call parked on another replica: answered there (and audited there).
                return services.forwarding().forward(owner.get(), ctx, profile, links, services);
            }
            return services.trail().around(ctx, handler, this::auditRecord);
        };
    }

    /** A stateless request speaks for its client (see {@link ClientProfile#adopt}), and uses the shared upstreams. */
    private void adopt(RequestContext ctx) {
        if (!profile.stateless()) {
            links.moveToShared(this);
        }
        profile.adopt(ctx.params());
        held.readyWithoutFlush(); // nothing to wait for: no initialized notification comes
    }

    private AuditRecord auditRecord(Instant at, RequestContext ctx, JsonNode result, Throwable thrown,
            Duration took) {
        return AuditTrail.recordOf(at, ctx, result, thrown, took, profile.name(), links.naming(), links.all(),
                services.tools()).withCaller(profile.caller());
    }

    // ---- from the upstreams to the client ------------------------------------------------------

    @Override
    public void fromUpstream(UpstreamLink link, String method, JsonNode body, Optional<McpClient> from) {
        if (session.isClosed()) {
            return;
        }
        boolean stateless = profile.stateless();
        if (!stateless && from.isPresent() && !"notifications/resources/updated".equals(method)
                && !from.equals(link.connectedFor(profile.upstreamCapabilities()))) {
            return; // another upstream connection's news, for the clients on that one
        }
        if ("notifications/tasks/status".equals(method) && !tasks.heard(link, body, from)) {
            return; // another caller's task
        }
        if ("notifications/resources/updated".equals(method) && !stateless
                && !resources.subscribedTo(body.path("uri").asString(""))) {
            return; // another client's subscription
        }
        if (stateless) {
            try {
                listens.toStatelessClient(method, body);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "a notification for a stateless client was dropped");
            }
            return;
        }
        if (held.held(() -> session.notify(method, body))) {
            return;
        }
        Optional<RequestId> about = from.flatMap(inFlight::on);
        if (about.isPresent()) {
            session.notify(method, body, about.get()); // during a call on that connection: on its stream
        } else {
            session.notify(method, body);
        }
    }

    @Override
    public boolean created(McpClient upstream, String taskId) {
        return tasks.createdHere(upstream, taskId);
    }

    @Override
    public ObjectNode ask(McpClient on, String method, ObjectNode params) throws Exception {
        return askClient(method, params, inFlight.on(on));
    }

    /** A request an upstream makes of this client: only what the client declared it can answer. */
    private ObjectNode askClient(String method, ObjectNode params, Optional<RequestId> about) throws Exception {
        String capability = Lifecycle.capabilityFor(method).orElse("");
        if (!profile.capabilities().has(capability)) {
            throw ProtocolException.methodNotFound("The client does not offer this");
        }
        OutgoingRequest out = about.isPresent() ? session.request(method, params, about.get())
                : session.request(method, params);
        // Interrupted when the upstream cancelled its request (or went away): the client hears of it too.
        ObjectNode answer = out.awaitObject("Cancelled by the server");
        if ("roots/list".equals(method)) {
            profile.shown().roots(answer); // the client's own places: paths in them are its to see
        }
        return answer;
    }

    /**
     * What this client sent in the calls it has in flight on that upstream connection (see
     * {@link CallsInFlight#sentOn}).
     */
    @Override
    public CallerInput sentDuringCallsOn(McpClient upstream) {
        return inFlight.sentOn(upstream);
    }

    /** See {@link ClientProfile#sessionAsking()}: which upstream connection this client may still use. */
    @Override
    public Optional<String> sessionAsking() {
        return profile.sessionAsking();
    }

    // ---- from the client to the upstreams ------------------------------------------------------

    /** The client's notifications (roots changed, say) reach every upstream; initialized is the gateway's own. */
    private void notifyUpstreams(String method, Optional<JsonNode> params) {
        ObjectNode body = params.filter(ObjectNode.class::isInstance).map(ObjectNode.class::cast).orElseGet(Json::object);
        for (UpstreamLink link : links.all()) {
            if ("notifications/roots/list_changed".equals(method) && !link.dedicated()) {
                continue; // a shared server's roots are never a client's (see UpstreamLink#sharedRoots)
            }
            link.connectedFor(profile.upstreamCapabilities()).ifPresent(c -> {
                try {
                    c.notify(method, body);
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.DEBUG, "a notification to upstream {0} was dropped", link.name());
                }
            });
        }
    }
}
