package dev.warden.gateway.internal;

import dev.warden.client.McpClient;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.error.AuthorizationFailedException;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.MessageTooLargeException;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.error.RequestTimeoutException;
import dev.warden.core.json.Json;
import dev.warden.core.sanitize.CallerInput;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.session.OutgoingRequest;
import dev.warden.core.session.RequestContext;
import dev.warden.core.session.RequestOptions;
import dev.warden.core.session.Session;
import dev.warden.core.transport.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One client's connection through the gateway: an MCP server towards the client, in front of one
 * or more upstreams ({@link UpstreamLink}). Their tools and prompts are listed together (named
 * {@code <upstream>__<name>} when there are several), resources routed to the upstream that listed
 * them; requests, notifications and the upstreams' own requests cross with their fields intact;
 * failures go through each upstream's {@link ErrorPipeline}; progress and cancellation cross both
 * ways.
 */
public final class ProxyConnection implements Asker {

    private static final System.Logger LOG = System.getLogger(ProxyConnection.class.getName());
    /** Pages of one upstream's list read at most when lists are merged. */
    private static final int MAX_PAGES = 100;

    /** The upstreams this connection uses: per-client ones for a session, the shared ones once it is stateless. */
    private volatile List<UpstreamLink> links;
    private final List<UpstreamLink> shared;
    /** The HTTP request's headers, for a stateless request that arrived over HTTP. */
    private final Optional<dev.warden.core.transport.RequestHeaders> requestHeaders;
    private final Naming naming;
    private final Session session;
    private volatile ObjectNode clientCapabilities = Json.object();
    /** Which upstream listed a resource URI, and the fixed prefixes of its templates. */
    private final Map<String, UpstreamLink> resourceOwners = new ConcurrentHashMap<>();
    /** This client's requests in flight upstream, by the upstream connection each went on. */
    private final Map<RequestId, Call> callsUpstream = new ConcurrentHashMap<>();

    /** One of this client's requests in flight upstream: on which connection, with what params. */
    private record Call(McpClient upstream, Optional<JsonNode> params) {
    }
    private final Map<String, UpstreamLink> templatePrefixes = new ConcurrentHashMap<>();

    /** Calls this client may make per period, for all upstreams together (shared by all its connections). */
    private volatile Optional<io.github.bucket4j.Bucket> clientRate;
    /** Who this client is, for its rate and its parked calls: its address, never the name it gives. */
    private volatile ClientKey clientKey;
    private final Services services;
    private static final java.util.concurrent.atomic.AtomicLong CONNECTIONS = new java.util.concurrent.atomic.AtomicLong();
    private final long number = CONNECTIONS.incrementAndGet();
    private volatile String client = "client#" + number;

    /**
     * @param links the upstreams of this connection (a per-client upstream gets a link of its own)
     * @param shared the gateway's shared links, in the same order: what a stateless client uses,
     *     since its requests share no connection that could own an upstream process
     */
    public ProxyConnection(Transport downstream, List<UpstreamLink> links, List<UpstreamLink> shared, Naming naming,
            Services services) {
        this.services = services;
        this.clientKey = downstream instanceof dev.warden.core.transport.PeerAddress p && p.peerAddress() != null
                && !p.peerAddress().isEmpty() ? new ClientKey.Address(p.peerAddress()) : new ClientKey.Connection(number);
        this.clientRate = services.perClient().of(clientKey);
        if (links.isEmpty() || links.size() != shared.size()) {
            throw new IllegalArgumentException("a gateway needs at least one upstream, and a shared link for each");
        }
        this.links = List.copyOf(links);
        this.shared = List.copyOf(shared);
        this.requestHeaders = downstream instanceof dev.warden.core.transport.RequestHeaders h ? Optional.of(h)
                : Optional.empty();
        this.naming = naming;
        this.session = Session.builder(downstream)
                .boundary(services.boundary())
                .defaultTimeout(links.get(0).spec().timeout())
                .onRequestInline(Lifecycle.INITIALIZE, this::initialize)
                .onNotification(Lifecycle.INITIALIZED, (method, params) -> clientReady())
                .onRequest("tools/list", audited(this::listTools))
                .onRequest("tools/call", audited(this::callTool))
                .onRequestAsync("tools/call", this::callToolWithoutThread)
                .onRequest("prompts/list", audited(ctx -> listNamed(ctx, "prompts")))
                .onRequest("prompts/get", audited(this::getPrompt))
                .onRequest("resources/list", audited(ctx -> listResources(ctx, "resources", "uri", resourceOwners)))
                .onRequest("resources/templates/list", audited(ctx -> listResources(ctx, "resourceTemplates",
                        "uriTemplate", templatePrefixes)))
                .onRequest("resources/read", audited(this::byResource))
                .onRequest("resources/subscribe", audited(this::byResource))
                .onRequest("resources/unsubscribe", audited(this::byResource))
                .onRequest("logging/setLevel", audited(this::setLevel))
                .onRequest("completion/complete", audited(this::complete))
                .onRequest("server/discover", audited(this::discover))
                .onRequest("subscriptions/listen", audited(this::listen))
                .onOtherRequest(audited(this::forwardOther))
                .onOtherNotification(this::notifyUpstreams)
                .resultFilter(this::decorate)
                .build();
    }

    public void start() {
        session.gate(StatelessRules::admit);
        links.forEach(l -> l.register(this));
        session.closed().whenComplete((v, e) -> links.forEach(l -> l.unregister(this)));
        // (adopt() moves a connection that turns out stateless to the shared links.)
        session.start();
    }

    public CompletableFuture<Void> closed() {
        return session.closed();
    }

    public void close() {
        session.close();
    }

    /**
     * A stateless request speaks for its client: its capabilities and name (there was no
     * initialize), and the log level it wants for this request's messages.
     */
    private void adopt(RequestContext ctx) {
        JsonNode meta = ctx.params().map(p -> p.path("_meta")).orElseGet(Json::object);
        synchronized (held) {
            if (!statelessClient && !links.equals(shared)) {
                // A stateless request owns no upstream process: it uses the shared ones.
                links.forEach(l -> l.unregister(this));
                links = shared;
                links.forEach(l -> l.register(this));
            }
        }
        statelessClient = true;
        if (meta.get(ProtocolVersion.META_CLIENT_CAPABILITIES) instanceof ObjectNode caps) {
            clientCapabilities = caps.deepCopy();
        }
        String name = meta.path(ProtocolVersion.META_CLIENT_INFO).path("name").asString("");
        if (!name.isEmpty()) {
            client = AuditTrail.printable(name) + "#" + number;
        }
        if (clientKey instanceof ClientKey.Connection) {
            clientKey = new ClientKey.Unknown(); // a stateless request's own connection ends with it
            clientRate = services.perClient().of(clientKey);
        }
        JsonNode level = meta.get(ProtocolVersion.META_LOG_LEVEL);
        logLevel = level != null && level.isString() && StatelessRules.knownLevel(level.stringValue())
                ? Optional.of(level.stringValue()) : Optional.empty();
        synchronized (held) {
            ready = true; // nothing to wait for: no initialized notification comes
            held.clear();
        }
    }

    private volatile boolean statelessClient;

    /** {@code server/discover}: every version, and what the upstreams offer (as initialize would say). */
    private JsonNode discover(RequestContext ctx) {
        List<McpClient> up = connectAll();
        ObjectNode result = Json.object();
        ProtocolVersion.supportedWire().forEach(result.putArray("supportedVersions")::add);
        ObjectNode caps = single() ? up.get(0).serverCapabilities().deepCopy() : merged(up);
        result.set("capabilities", caps);
        if (single()) {
            up.get(0).instructions().ifPresent(i -> result.put("instructions",
                    links.get(0).pipeline().cleanNotification(Json.mapper().getNodeFactory().stringNode(i)).asString("")));
        }
        return result;
    }

    /**
     * Results of stateless requests carry what that version requires of every result: the result
     * type, the server's identity, and for cacheable ones a TTL (zero: the gateway cannot promise
     * an upstream's lists stay put) and a private scope.
     */
    private JsonNode decorate(dev.warden.core.jsonrpc.JsonRpcMessage.Request request, JsonNode result) {
        if (StatelessRules.envelopeVersion(request.params()).isEmpty() && !"server/discover".equals(request.method())) {
            return result;
        }
        return dev.warden.core.mcp.StatelessResults.decorate(request.method(), result, serverInfo());
    }

    /** The name the gateway answers with: the upstream's when it stands alone, else its own. */
    private JsonNode serverInfo() {
        if (single()) {
            Optional<McpClient> only = links.get(0).connected();
            if (only.isPresent()) {
                return Json.tree(only.get().serverInfo());
            }
        }
        return Json.object().put("name", "warden-gateway").put("version", "1");
    }

    private boolean single() {
        return links.size() == 1 && !naming.prefixed();
    }

    // ---- audit ---------------------------------------------------------------------------------

    /** Every request is audited ({@link AuditTrail}); a stateless one first says who its client is. */
    private dev.warden.core.session.RequestHandler audited(dev.warden.core.session.RequestHandler handler) {
        return ctx -> {
            if (StatelessRules.stateless(ctx)) {
                adopt(ctx);
            }
            return services.trail().around(ctx, handler, this::auditRecord);
        };
    }

    private dev.warden.gateway.audit.AuditRecord auditRecord(RequestContext ctx, JsonNode result, Throwable thrown,
            Duration took) {
        return AuditTrail.recordOf(ctx, result, thrown, took, client, naming, links, services.tools());
    }

    // ---- lifecycle -----------------------------------------------------------------------------

    private JsonNode initialize(RequestContext ctx) {
        JsonNode params = ctx.params().orElseGet(Json::object);
        ProtocolVersion version = ProtocolVersion.fromWire(params.path("protocolVersion").asString(""))
                .filter(v -> !v.stateless()).orElse(ProtocolVersion.latestSessionBased());
        clientCapabilities = params.path("capabilities") instanceof ObjectNode caps ? caps.deepCopy() : Json.object();
        client = AuditTrail.printable(params.path("clientInfo").path("name").asString("client")) + "#" + number;
        List<McpClient> up = connectAll();
        ObjectNode result = Json.object();
        result.put("protocolVersion", version.wire());
        if (single()) {
            McpClient only = up.get(0);
            result.set("capabilities", only.serverCapabilities());
            result.set("serverInfo", Json.tree(only.serverInfo()));
            only.instructions().ifPresent(i -> result.put("instructions",
                    links.get(0).pipeline().cleanNotification(Json.mapper().getNodeFactory().stringNode(i)).asString("")));
        } else {
            result.set("capabilities", merged(up));
            result.set("serverInfo", serverInfo());
        }
        return result;
    }

    /** Every upstream, connected in parallel; one that cannot start is left out (and recorded), all failing fails initialize. */
    private List<McpClient> connectAll() {
        List<CompletableFuture<Optional<McpClient>>> pending = new ArrayList<>();
        List<ErrorPipeline.Outcome> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (UpstreamLink link : links) {
            CompletableFuture<Optional<McpClient>> f = new CompletableFuture<>();
            Thread.ofVirtual().start(() -> {
                try {
                    f.complete(Optional.of(link.client(upstreamCapabilities())));
                } catch (ConnectionSlots.AtCapacity e) {
                    failures.add(unavailable(link, Lifecycle.INITIALIZE, Optional.empty(), e));
                    f.complete(Optional.empty());
                } catch (RuntimeException e) {
                    // Why (the program, its exit code and last stderr lines) is logged where it was launched.
                    failures.add(link.pipeline().local(Lifecycle.INITIALIZE, Optional.empty(), ErrorCode.UPSTREAM_ERROR,
                            "The upstream server could not be started.", e));
                    f.complete(Optional.empty());
                }
            });
            pending.add(f);
        }
        List<McpClient> up = new ArrayList<>();
        for (CompletableFuture<Optional<McpClient>> f : pending) {
            f.join().ifPresent(up::add);
        }
        if (up.isEmpty() || single() && up.size() != 1) {
            ErrorPipeline first = links.get(0).pipeline();
            // The ref the client gets is that of the incident that has the cause.
            throw first.rpcError(JsonRpcError.INTERNAL_ERROR, failures.isEmpty() ? first.local(Lifecycle.INITIALIZE,
                    Optional.empty(), ErrorCode.UPSTREAM_ERROR, "The upstream server could not be started.",
                    new IllegalStateException("no upstream could be started")) : failures.get(0));
        }
        return up;
    }

    /** What several upstreams offer together: a capability if any offers it. */
    private static ObjectNode merged(List<McpClient> up) {
        ObjectNode caps = Json.object();
        for (McpClient c : up) {
            ObjectNode theirs = c.serverCapabilities();
            for (String key : List.of("tools", "prompts", "resources", "logging", "completions")) {
                if (theirs.get(key) instanceof ObjectNode part) {
                    ObjectNode mine = caps.has(key) ? (ObjectNode) caps.get(key) : caps.putObject(key);
                    for (Map.Entry<String, JsonNode> flag : part.properties()) {
                        if (flag.getValue().asBoolean(false)) {
                            mine.put(flag.getKey(), true);
                        }
                    }
                }
            }
        }
        return caps;
    }

    /** Notifications held until the client has said it is initialized (an upstream may talk first). */
    private final List<Runnable> held = new ArrayList<>();
    private boolean ready;
    static final int MAX_HELD = 256;

    private void clientReady() {
        List<Runnable> flush;
        synchronized (held) {
            ready = true;
            flush = List.copyOf(held);
            held.clear();
        }
        flush.forEach(Runnable::run);
    }

    /** An upstream's notification (already sanitized where it carries text) on its way to the client. */
    void fromUpstream(UpstreamLink link, String method, JsonNode body, Optional<McpClient> from) {
        if (session.isClosed()) {
            return;
        }
        if (!statelessClient && from.isPresent() && !"notifications/resources/updated".equals(method)
                && !from.equals(link.connectedFor(upstreamCapabilities()))) {
            return; // another upstream connection's news, for the clients on that one
        }
        if ("notifications/resources/updated".equals(method) && !statelessClient
                && !subscriptions.contains(body.path("uri").asString(""))) {
            return; // another client's subscription
        }
        if (statelessClient) {
            try {
                toStatelessClient(method, body);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "a notification for a stateless client was dropped");
            }
            return;
        }
        synchronized (held) {
            if (!ready) {
                if (held.size() < MAX_HELD) {
                    held.add(() -> session.notify(method, body));
                }
                return;
            }
        }
        Optional<RequestId> about = from.flatMap(this::callOn);
        if (about.isPresent()) {
            session.notify(method, body, about.get()); // during a call on that connection: on its stream
        } else {
            session.notify(method, body);
        }
    }

    @Override
    public ObjectNode ask(McpClient on, String method, ObjectNode params) throws Exception {
        return askClient(method, params, callOn(on));
    }

    /**
     * One of this client's requests in flight on that upstream connection: what the connection
     * asks or says mid-call travels on its stream, which the client is reading for the answer
     * (the client's GET stream may not be open yet, and then would lose it).
     */
    private Optional<RequestId> callOn(McpClient upstream) {
        return callsUpstream.entrySet().stream().filter(e -> e.getValue().upstream() == upstream)
                .map(Map.Entry::getKey).findFirst();
    }

    /**
     * What this client sent in the calls it has in flight on that upstream connection: a log the
     * server writes meanwhile may repeat it to this client (the only one of a dedicated link).
     */
    CallerInput sentDuringCallsOn(McpClient upstream) {
        ArrayNode sent = Json.mapper().getNodeFactory().arrayNode();
        for (Call call : callsUpstream.values()) {
            if (call.upstream() == upstream) {
                call.params().map(p -> p.has("arguments") ? p.get("arguments") : p).ifPresent(sent::add);
            }
        }
        return sent.isEmpty() ? CallerInput.none() : CallerInput.of(sent);
    }

    /** A request an upstream makes of this client: only what the client declared it can answer. */
    ObjectNode askClient(String method, ObjectNode params, Optional<RequestId> about) throws Exception {
        String capability = Lifecycle.capabilityFor(method).orElse("");
        if (!clientCapabilities.has(capability)) {
            throw ProtocolException.methodNotFound("The client does not offer this");
        }
        OutgoingRequest out = about.isPresent() ? session.request(method, params, about.get())
                : session.request(method, params);
        try {
            JsonNode answer = out.get();
            return answer instanceof ObjectNode o ? o : Json.object();
        } catch (InterruptedException e) {
            // The upstream cancelled its request (or went away): the client hears of it too.
            out.cancel("Cancelled by the server");
            throw e;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /** The client's notifications (roots changed, say) reach every upstream; initialized is the gateway's own. */
    private void notifyUpstreams(String method, Optional<JsonNode> params) {
        ObjectNode body = params.filter(ObjectNode.class::isInstance).map(ObjectNode.class::cast).orElseGet(Json::object);
        for (UpstreamLink link : links) {
            if ("notifications/roots/list_changed".equals(method) && !link.dedicated()) {
                continue; // a shared server's roots are never a client's (see UpstreamLink#sharedRoots)
            }
            link.connectedFor(upstreamCapabilities()).ifPresent(c -> {
                try {
                    c.notify(method, body);
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.DEBUG, "a notification to upstream {0} was dropped", link.name());
                }
            });
        }
    }

    // ---- tools and prompts ---------------------------------------------------------------------

    private JsonNode listTools(RequestContext ctx) throws Exception {
        JsonNode result = listNamed(ctx, "tools");
        for (JsonNode tool : result.path("tools")) {
            services.tools().note(tool);
        }
        return result;
    }

    /**
     * {@code tools/list} or {@code prompts/list}. One upstream: its pages as they are, with what
     * policy hides taken out. Several: every page of each, renamed, in one answer; an upstream
     * that fails is left out and the others are listed.
     */
    private JsonNode listNamed(RequestContext ctx, String field) throws Exception {
        if (single()) {
            UpstreamLink link = links.get(0);
            return visible(link, forward(link, ctx, params(ctx)), field);
        }
        ObjectNode out = Json.object();
        ArrayNode all = out.putArray(field);
        for (UpstreamLink link : links) {
            try {
                Optional<String> cursor = Optional.empty();
                int pages = 0;
                do {
                    ObjectNode p = Json.object();
                    cursor.ifPresent(c -> p.put("cursor", c));
                    JsonNode page = send(link, ctx, p, link.spec().timeout(), Optional.empty());
                    for (JsonNode item : visible(link, page, field).path(field)) {
                        ObjectNode renamed = ((ObjectNode) link.pipeline().cleanSuccess(item)).deepCopy();
                        renamed.put("name", naming.exposed(link, item.path("name").asString("")));
                        all.add(renamed);
                    }
                    cursor = page.path("nextCursor").isString() ? Optional.of(page.get("nextCursor").stringValue())
                            : Optional.empty();
                } while (cursor.isPresent() && ++pages < MAX_PAGES);
            } catch (PeerErrorException | LocalFailure e) {
                LOG.log(System.Logger.Level.WARNING, "upstream {0} left out of {1}", link.name(), ctx.method());
            }
        }
        return out;
    }

    /** A listing without the tools policy hides (a denied tool does not exist, as far as the client can tell). */
    private static JsonNode visible(UpstreamLink link, JsonNode page, String field) {
        if (!"tools".equals(field) || !(page instanceof ObjectNode object) || !(page.get(field) instanceof ArrayNode items)) {
            return page;
        }
        ArrayNode kept = Json.mapper().createArrayNode();
        for (JsonNode item : items) {
            if (link.spec().exposes(item.path("name").asString(""))) {
                kept.add(item);
            }
        }
        if (kept.size() == items.size()) {
            return page;
        }
        ObjectNode copy = object.deepCopy();
        copy.set(field, kept);
        return copy;
    }

    private JsonNode callTool(RequestContext ctx) throws Exception {
        ObjectNode params = params(ctx);
        String exposed = params.path("name").asString("");
        Naming.Target target = naming.resolve(links, exposed).filter(t -> t.link().spec().exposes(t.name()))
                .orElseThrow(() -> unknownTool(naming.resolve(links, exposed).map(Naming.Target::link)
                        .orElse(links.get(0)), exposed, ctx));
        UpstreamLink link = target.link();
        params.put("name", target.name());
        boolean structured = !services.tools().hasOutputSchema(exposed);
        if (StatelessRules.stateless(ctx) && requestHeaders.isPresent()) {
            // Over HTTP the call's Mcp-Param-* headers must agree with the arguments the tool marks
            // for them (an intermediary may have routed on them): else the version's -32020.
            Optional<String> bad = services.tools().paramHeaders(exposed).flatMap(h -> h.mismatch(
                    requestHeaders.get()::header, ctx.params().map(p -> p.path("arguments")).orElseGet(Json::object)));
            if (bad.isPresent()) {
                throw ProtocolException.headerMismatch("Header mismatch: " + bad.get()
                        + " is missing, malformed or differs from the arguments");
            }
        }
        List<Guard.Permit> permit = new ArrayList<>(1);
        JsonNode result;
        try {
            result = send(link, ctx, params, link.spec().timeoutFor(target.name()), Optional.of(target.name()),
                    permit::add);
        } catch (PeerErrorException | LocalFailure e) {
            return toolAnswer(link, target.name(), exposed, ctx, structured, permit, null, e);
        } catch (Exception | Error e) {
            permit.forEach(p -> p.judged(Guard.Verdict.CALLERS_FAULT));
            throw e;
        }
        return toolAnswer(link, target.name(), exposed, ctx, structured, permit, result, null);
    }

    /**
     * What the client gets for a call the upstream answered ({@code result}) or did not ({@code
     * failure}: the upstream's error, or a local failure already recorded), and how the tool fared,
     * for its breaker: only its own failures count, never the caller's mistakes.
     */
    private JsonNode toolAnswer(UpstreamLink link, String tool, String exposed, RequestContext ctx, boolean structured,
            List<Guard.Permit> permit, JsonNode result, Exception failure) {
        Guard.Verdict verdict = Guard.Verdict.CALLERS_FAULT;
        try {
            if (failure instanceof PeerErrorException e) {
                // -32602 by the spec; -32603 from servers on older SDKs ("Unknown tool: x", "Tool not found: x").
                if (e.error().code() == JsonRpcError.INVALID_PARAMS && unknownTool(e.error().message())
                        || e.error().code() == JsonRpcError.INTERNAL_ERROR
                        && saysUnknownTool(ErrorPipeline.withoutSdkPrefix(e.error().message()))) {
                    throw unknownTool(link, exposed, ctx);
                }
                ErrorPipeline.Outcome outcome = toolError(link, tool, e.error(), ctx.params(),
                        services.tools().published(exposed));
                verdict = verdictOf(outcome);
                return link.pipeline().toolError(outcome, structured);
            }
            if (failure instanceof LocalFailure e) {
                return link.pipeline().toolError(e.outcome(), structured);
            }
            if (!result.path("isError").asBoolean(false)) {
                verdict = Guard.Verdict.WORKED;
                return link.pipeline().cleanSuccess(tool, result);
            }
            String text = ErrorPipeline.errorText(result);
            if (unknownTool(text)) {
                throw unknownTool(link, exposed, ctx);
            }
            ErrorPipeline.Outcome outcome = link.pipeline().failure("tools/call", Optional.of(tool),
                    ErrorPipeline.Said.ofResult(result), ErrorCode.UPSTREAM_ERROR, ctx.params(),
                    services.tools().published(exposed));
            verdict = verdictOf(outcome);
            return link.pipeline().toolError(outcome, structured);
        } finally {
            Guard.Verdict v = verdict;
            permit.forEach(p -> p.judged(v));
        }
    }

    /**
     * {@code tools/call} in the common case, without a thread of its own (see {@link
     * dev.warden.core.session.AsyncRequestHandler}): the call goes upstream from the thread that
     * read it, and a successful answer is cleaned, recorded and sent from the thread that read the
     * upstream's, so no thread is woken in between; any other end is handled on a thread of its
     * own, as {@link #callTool} would (it writes incidents). Anything else {@link #callTool} still
     * does: null (a stateless client, a rate per client, a name that resolves to no tool, an
     * upstream not connected now or speaking a stateless version, a concurrency limit reached, an
     * audit trail refusing requests) leaves the call to it.
     */
    private java.util.concurrent.CompletionStage<JsonNode> callToolWithoutThread(RequestContext ctx) {
        if (statelessClient || StatelessRules.stateless(ctx) || clientRate.isPresent() || services.trail().refusing()) {
            return null;
        }
        long start = System.nanoTime();
        ObjectNode params = params(ctx);
        String exposed = params.path("name").asString("");
        Optional<Naming.Target> found = naming.resolve(links, exposed).filter(t -> t.link().spec().exposes(t.name()));
        if (found.isEmpty()) {
            return null;
        }
        Naming.Target target = found.get();
        UpstreamLink link = target.link();
        Optional<McpClient> connected = link.connectedFor(upstreamCapabilities()).filter(McpClient::isConnected);
        services.parked().sweep(); // calls parked past their time give their places back first
        if (connected.isEmpty() || connected.get().protocolVersion().stateless()
                || !link.guard().admitsWithoutWaiting()) {
            return null;
        }
        McpClient upstream = connected.get();
        Optional<String> tool = Optional.of(target.name());
        params.put("name", target.name());
        boolean structured = !services.tools().hasOutputSchema(exposed);
        ErrorPipeline pipeline = link.pipeline();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        Guard.Permit permit;
        try {
            permit = link.guard().admit(tool);
        } catch (Guard.RefusedException e) {
            onThread(answer, ctx, start, () -> toolAnswer(link, target.name(), exposed, ctx, structured, List.of(),
                    null, new LocalFailure(pipeline.refused(ctx.method(), tool, e.refusal()))));
            return answer;
        }
        List<Guard.Permit> permits = List.of(permit);
        RequestOptions options = RequestOptions.ofDefaults().withTimeout(link.spec().timeoutFor(target.name()))
                .withResetTimeoutOnProgress(true)
                .withProgress(p -> ctx.progress(p.progress(), p.total(), p.message().map(m ->
                        pipeline.cleanNotification(Json.mapper().getNodeFactory().stringNode(m)).asString(""))));
        Asker asker = this;
        link.enter(upstream, asker);
        callsUpstream.put(ctx.id(), new Call(upstream, ctx.params()));
        Optional<OutgoingRequest> sent;
        try {
            sent = upstream.requestIfConnected(ctx.method(), params, options);
        } catch (RuntimeException e) {
            sent = Optional.empty();
        }
        if (sent.isEmpty()) {
            // The connection went down since it was looked at: the blocking path reconnects.
            callsUpstream.remove(ctx.id());
            link.leave(upstream, asker);
            permit.withdrawn();
            return null;
        }
        OutgoingRequest out = sent.get();
        ctx.onCancel(() -> out.cancel("Cancelled by the client"));
        out.whenComplete((result, error) -> {
            if (error != null) {
                callsUpstream.remove(ctx.id());
                link.leave(upstream, asker);
                onThread(answer, ctx, start, () -> {
                    Throwable cause = error instanceof java.util.concurrent.CompletionException c
                            && c.getCause() != null ? c.getCause() : error;
                    if (ctx.cancelled()) {
                        permit.withdrawn(); // the client gave up, not the upstream
                        throw cause instanceof Exception e ? e : new ExecutionException(cause);
                    }
                    Exception failure = failed(link, ctx, permit, tool, cause);
                    if (failure instanceof PeerErrorException || failure instanceof LocalFailure) {
                        return toolAnswer(link, target.name(), exposed, ctx, structured, permits, null, failure);
                    }
                    permit.judged(Guard.Verdict.CALLERS_FAULT);
                    throw failure;
                });
                return;
            }
            permit.answered();
            // What the upstream said before answering reaches the client first, on this call's
            // stream while the call is still listed as in flight there (as settled() waits for).
            upstream.notificationsHandled().completeOnTimeout(null, 5, TimeUnit.SECONDS).whenComplete((v, e) -> {
                callsUpstream.remove(ctx.id());
                link.leave(upstream, asker);
                java.util.concurrent.Callable<JsonNode> work = () -> toolAnswer(link, target.name(), exposed, ctx,
                        structured, permits, result, null);
                if (result.path("isError").asBoolean(false)) {
                    onThread(answer, ctx, start, work); // a failure is recorded as an incident
                } else {
                    end(answer, ctx, start, work);
                }
            });
        });
        return answer;
    }

    /** {@link #end} on a virtual thread of its own: for work that may block (the incident store). */
    private void onThread(CompletableFuture<JsonNode> answer, RequestContext ctx, long start,
            java.util.concurrent.Callable<JsonNode> work) {
        Thread.ofVirtual().name("warden-handler").start(() -> end(answer, ctx, start, work));
    }

    /** Does the work, records the request as {@link AuditTrail#around} would, and completes its answer. */
    private void end(CompletableFuture<JsonNode> answer, RequestContext ctx, long start,
            java.util.concurrent.Callable<JsonNode> work) {
        JsonNode result = null;
        Throwable thrown = null;
        try {
            result = work.call();
        } catch (Throwable t) {
            thrown = t;
        }
        try {
            answer.complete(services.trail().ended(ctx, result, thrown, start, this::auditRecord));
        } catch (Throwable t) {
            answer.completeExceptionally(t);
        }
    }

    /** A failure the server itself owns (an internal error, an upstream of its own failing) counts against the tool. */
    private static Guard.Verdict verdictOf(ErrorPipeline.Outcome outcome) {
        return switch (outcome.code()) {
            case UPSTREAM_ERROR, INTERNAL_ERROR -> Guard.Verdict.TOOLS_FAULT;
            case VALIDATION_ERROR, NOT_FOUND, PERMISSION_DENIED, CONFLICT, RATE_LIMITED, TIMEOUT, BLOCKED ->
                    Guard.Verdict.CALLERS_FAULT;
        };
    }

    /**
     * A JSON-RPC error answering a call: an unknown tool or a bad request stays a protocol error
     * (the tool's name is not repeated); anything else is really the tool failing (the ash_ai
     * pattern: -32000 "Tool execution failed" with the detail in {@code data}), so it becomes an
     * {@code isError} result the model can read, with that detail sanitized.
     */
    private static ErrorPipeline.Outcome toolError(UpstreamLink link, String tool, JsonRpcError error,
            Optional<JsonNode> params, List<String> published) {
        Optional<ProtocolException> version = StatelessRules.versionRule(error);
        if (version.isPresent()) {
            throw version.get();
        }
        if (error.code() == JsonRpcError.METHOD_NOT_FOUND && !offersTools(link)) {
            throw ProtocolException.methodNotFound();
        }
        // From a server that has tools, -32601 is something inside the tool (the TypeScript SDK
        // passes on a client's -32601 to a request it made mid-call): the tool failed.
        ErrorPipeline pipeline = link.pipeline();
        if (error.code() == JsonRpcError.INVALID_PARAMS) {
            throw pipeline.rpcError(JsonRpcError.INVALID_PARAMS, pipeline.failure("tools/call", Optional.of(tool),
                    ErrorPipeline.Said.of(error), ErrorCode.VALIDATION_ERROR, params, published));
        }
        return pipeline.failure("tools/call", Optional.of(tool), ErrorPipeline.Said.of(error), ErrorCode.UPSTREAM_ERROR,
                params, published);
    }

    private static boolean offersTools(UpstreamLink link) {
        return link.connected().map(c -> c.serverCapabilities().has("tools")).orElse(false);
    }

    private JsonNode getPrompt(RequestContext ctx) throws Exception {
        ObjectNode params = params(ctx);
        Naming.Target target = naming.resolve(links, params.path("name").asString(""))
                .orElseThrow(() -> ProtocolException.unknown("Unknown prompt"));
        params.put("name", target.name());
        return forward(target.link(), ctx, params);
    }

    static boolean unknownTool(String text) {
        String t = (text.length() > 4096 ? text.substring(0, 4096) : text).toLowerCase(Locale.ROOT);
        return t.contains("unknown tool") || t.contains("tool not found")
                || t.contains("tool ") && t.contains(" not found") && (t.contains("-32602") || t.startsWith("tool "));
    }

    /** An internal error that is only the server saying it has no such tool (its first words say so). */
    static boolean saysUnknownTool(String message) {
        String t = (message.length() > 256 ? message.substring(0, 256) : message).toLowerCase(Locale.ROOT);
        return t.startsWith("unknown tool") || t.startsWith("tool not found")
                || t.startsWith("tool ") && t.contains(" not found") && t.indexOf('\n') < 0;
    }

    /**
     * The name is the caller's input: it is not repeated back, but the operator sees it in the
     * incident behind the ref (with the arguments).
     */
    private static ProtocolException unknownTool(UpstreamLink link, String name, RequestContext ctx) {
        ErrorPipeline.Outcome recorded = link.pipeline().unknown(ctx.method(), name,
                ErrorPipeline.argumentsOf(ctx.params()));
        return new ProtocolException(JsonRpcError.INVALID_PARAMS, recorded.visible());
    }

    // ---- resources and the rest ----------------------------------------------------------------

    /** Resources keep their URIs; the gateway remembers which upstream listed each, to route reads. */
    private JsonNode listResources(RequestContext ctx, String field, String key, Map<String, UpstreamLink> owners)
            throws Exception {
        if (single()) {
            return forward(links.get(0), ctx, params(ctx));
        }
        ObjectNode out = Json.object();
        ArrayNode all = out.putArray(field);
        for (UpstreamLink link : links) {
            try {
                JsonNode page = send(link, ctx, Json.object(), link.spec().timeout(), Optional.empty());
                for (JsonNode item : page.path(field)) {
                    String id = item.path(key).asString("");
                    owners.put(key.equals("uriTemplate") ? templatePrefix(id) : id, link);
                    all.add(link.pipeline().cleanSuccess(item));
                }
            } catch (PeerErrorException | LocalFailure e) {
                LOG.log(System.Logger.Level.WARNING, "upstream {0} left out of {1}", link.name(), ctx.method());
            }
        }
        return out;
    }

    private static String templatePrefix(String template) {
        int brace = template.indexOf('{');
        return brace < 0 ? template : template.substring(0, brace);
    }

    private JsonNode byResource(RequestContext ctx) throws Exception {
        ObjectNode params = params(ctx);
        String uri = params.path("uri").asString("");
        UpstreamLink owner = ownerOf(uri).orElseThrow(() ->
                // Not listed by anyone: the version's not-found, without the URI.
                ProtocolException.unknown("Resource not found"));
        return switch (ctx.method()) {
            case "resources/subscribe" -> subscribe(owner, ctx, params, uri, this);
            case "resources/unsubscribe" -> unsubscribe(owner, ctx, params, uri, this);
            default -> forward(owner, ctx, params);
        };
    }

    /** Resource URIs this client subscribed to: resource updates reach only their subscribers. */
    private final Set<String> subscriptions = ConcurrentHashMap.newKeySet();

    /**
     * Clients share an upstream's session, so subscriptions are counted: the first subscriber of a
     * URI subscribes upstream (a stateless upstream hears of it on the gateway's listen stream),
     * the last to leave unsubscribes.
     */
    private JsonNode subscribe(UpstreamLink owner, RequestContext ctx, ObjectNode params, String uri,
            Object subscriber) throws Exception {
        if (!owner.client(upstreamCapabilities()).serverCapabilities().path("resources").path("subscribe").asBoolean(false)) {
            throw ProtocolException.methodNotFound();
        }
        if (owner.subscribe(subscriber, uri) && !owner.stateless()) {
            try {
                upstreamRequest(owner, ctx, "resources/subscribe", params);
            } catch (Exception e) {
                owner.unsubscribe(subscriber, uri, true);
                throw e;
            }
        }
        subscriptions.add(uri);
        return Json.object();
    }

    private JsonNode unsubscribe(UpstreamLink owner, RequestContext ctx, ObjectNode params, String uri,
            Object subscriber) throws Exception {
        subscriptions.remove(uri);
        if (owner.unsubscribe(subscriber, uri, true) && !owner.stateless()) {
            upstreamRequest(owner, ctx, "resources/unsubscribe", params);
        }
        return Json.object();
    }

    /** A request of the gateway's own to an upstream on behalf of this client (not the client's request as it came). */
    private void upstreamRequest(UpstreamLink owner, RequestContext ctx, String method, ObjectNode params) {
        ErrorPipeline pipeline = owner.pipeline();
        try {
            owner.primary(upstreamCapabilities()).request(method, params);
        } catch (PeerErrorException e) {
            if (e.error().code() == JsonRpcError.METHOD_NOT_FOUND) {
                throw ProtocolException.methodNotFound();
            }
            throw pipeline.rpcError(e.error().code(), pipeline.failure(method, Optional.empty(),
                    ErrorPipeline.Said.of(e.error()),
                    e.error().code() == JsonRpcError.INVALID_PARAMS ? ErrorCode.VALIDATION_ERROR : ErrorCode.UPSTREAM_ERROR,
                    ctx.params()));
        } catch (RuntimeException e) {
            throw pipeline.rpcError(JsonRpcError.INTERNAL_ERROR, unavailable(owner, method, Optional.empty(), e));
        }
    }

    /** The upstream a resource URI belongs to: the one that listed it (or a template of it). */
    private Optional<UpstreamLink> ownerOf(String uri) {
        if (single()) {
            return Optional.of(links.get(0));
        }
        UpstreamLink owner = resourceOwners.get(uri);
        if (owner == null) {
            owner = templatePrefixes.entrySet().stream().filter(e -> !e.getKey().isEmpty() && uri.startsWith(e.getKey()))
                    .max(Map.Entry.comparingByKey(java.util.Comparator.comparingInt(String::length)))
                    .map(Map.Entry::getValue).orElse(null);
        }
        return Optional.ofNullable(owner);
    }

    // ---- subscriptions/listen (stateless clients) ----------------------------------------------

    /** One open listen stream of this client: what it asked to hear, as far as the upstreams offer it. */
    private record Listen(dev.warden.core.jsonrpc.RequestId id, boolean tools, boolean prompts, boolean resources,
                          Set<String> uris) {
    }

    private final Map<dev.warden.core.jsonrpc.RequestId, Listen> listens = new ConcurrentHashMap<>();

    /**
     * {@code subscriptions/listen}: acknowledged with the part of the filter the upstreams can
     * honour, then held open; list changes and updates of the named resources arrive on it,
     * tagged with its id, until the client closes it. Its resource subscriptions count like any.
     */
    private JsonNode listen(RequestContext ctx) throws Exception {
        if (!StatelessRules.stateless(ctx)) {
            throw ProtocolException.methodNotFound();
        }
        JsonNode wanted = params(ctx).path("notifications");
        List<McpClient> up = connectAll();
        boolean tools = wanted.path("toolsListChanged").asBoolean(false) && offers(up, "tools", "listChanged");
        boolean prompts = wanted.path("promptsListChanged").asBoolean(false) && offers(up, "prompts", "listChanged");
        boolean resources = wanted.path("resourcesListChanged").asBoolean(false)
                && offers(up, "resources", "listChanged");
        Set<String> uris = ConcurrentHashMap.newKeySet();
        Map<String, UpstreamLink> owners = new java.util.LinkedHashMap<>();
        Object subscriber = new Object();
        ObjectNode agreed = Json.object();
        if (tools) {
            agreed.put("toolsListChanged", true);
        }
        if (prompts) {
            agreed.put("promptsListChanged", true);
        }
        if (resources) {
            agreed.put("resourcesListChanged", true);
        }
        if (wanted.path("resourceSubscriptions").isArray()) {
            ArrayNode list = agreed.putArray("resourceSubscriptions");
            for (JsonNode item : wanted.get("resourceSubscriptions")) {
                String uri = item.asString("");
                Optional<UpstreamLink> owner = item.isString() && uris.size() < 1000 ? ownerOf(uri) : Optional.empty();
                if (owner.isEmpty()) {
                    continue;
                }
                try {
                    subscribe(owner.get(), ctx, Json.object().put("uri", uri), uri, subscriber);
                    uris.add(uri);
                    owners.put(uri, owner.get());
                    list.add(uri);
                } catch (Exception e) {
                    LOG.log(System.Logger.Level.DEBUG, "a subscription of a listen stream was refused");
                }
            }
        }
        Listen listen = new Listen(ctx.id(), tools, prompts, resources, uris);
        ObjectNode ack = Json.object();
        ack.putObject("_meta").set(META_SUBSCRIPTION, ctx.id().toJson());
        ack.set("notifications", agreed);
        listens.put(ctx.id(), listen);
        try {
            session.notify("notifications/subscriptions/acknowledged", ack, ctx.id());
            session.closed().get(); // until the client closes the stream (this thread is interrupted then)
            throw new InterruptedException("the connection closed");
        } finally {
            listens.remove(ctx.id());
            owners.forEach((uri, owner) -> owner.unsubscribe(subscriber, uri, false));
        }
    }

    static final String META_SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId";

    private static boolean offers(List<McpClient> up, String capability, String flag) {
        return up.stream().anyMatch(c -> c.serverCapabilities().path(capability).path(flag).asBoolean(false));
    }

    /** An upstream's notification to a stateless client: log messages at its level; the rest on the listen streams that asked. */
    private void toStatelessClient(String method, JsonNode body) {
        if ("notifications/message".equals(method)) {
            Optional<String> wanted = logLevel;
            if (wanted.isPresent() && listens.isEmpty() && StatelessRules.levelAtLeast(body.path("level").asString(""), wanted.get())) {
                session.notify(method, body);
            }
            return;
        }
        for (Listen listen : listens.values()) {
            boolean matches = switch (method) {
                case "notifications/tools/list_changed" -> listen.tools();
                case "notifications/prompts/list_changed" -> listen.prompts();
                case "notifications/resources/list_changed" -> listen.resources();
                case "notifications/resources/updated" -> listen.uris().contains(body.path("uri").asString(""));
                default -> false;
            };
            if (matches) {
                ObjectNode tagged = body instanceof ObjectNode o ? o.deepCopy() : Json.object();
                ObjectNode meta = tagged.get("_meta") instanceof ObjectNode m ? m : tagged.putObject("_meta");
                meta.set(META_SUBSCRIPTION, listen.id().toJson());
                session.notify(method, tagged, listen.id());
            }
        }
    }

    /** The level the client set: stateless upstreams have no session to keep it, so it travels with each request. */
    private volatile Optional<String> logLevel = Optional.empty();

    private JsonNode setLevel(RequestContext ctx) throws Exception {
        JsonNode level = ctx.params().map(p -> p.get("level")).orElse(null);
        if (level != null && level.isString() && java.util.Arrays.stream(dev.warden.core.mcp.Logging.Level.values())
                .anyMatch(l -> l.wire().equals(level.stringValue()))) {
            logLevel = Optional.of(level.stringValue());
        }
        for (UpstreamLink link : links) {
            if (link.stateless()) {
                continue;
            }
            if (link.connectedFor(upstreamCapabilities()).map(c -> c.serverCapabilities().has("logging"))
                    .orElse(false)) {
                forward(link, ctx, params(ctx));
            }
        }
        return Json.object();
    }

    private JsonNode complete(RequestContext ctx) throws Exception {
        ObjectNode params = params(ctx);
        if (single()) {
            return forward(links.get(0), ctx, params);
        }
        JsonNode ref = params.path("ref");
        if ("ref/prompt".equals(ref.path("type").asString("")) && params.get("ref") instanceof ObjectNode r) {
            Naming.Target target = naming.resolve(links, ref.path("name").asString(""))
                    .orElseThrow(() -> ProtocolException.invalidParams("Invalid params: unknown prompt"));
            r.put("name", target.name());
            return forward(target.link(), ctx, params);
        }
        UpstreamLink owner = resourceOwners.getOrDefault(ref.path("uri").asString(""), null);
        if (owner == null) {
            throw ProtocolException.invalidParams("Invalid params: unknown reference");
        }
        return forward(owner, ctx, params);
    }

    /** Methods the gateway has no rule for go to the one upstream; with several, nowhere. */
    private JsonNode forwardOther(RequestContext ctx) throws Exception {
        if (links.size() != 1) {
            throw ProtocolException.methodNotFound();
        }
        return forward(links.get(0), ctx, params(ctx));
    }

    /** One request to one upstream; an error comes back sanitized, with its JSON-RPC code kept where allowed. */
    private JsonNode forward(UpstreamLink link, RequestContext ctx, ObjectNode params) throws Exception {
        ErrorPipeline pipeline = link.pipeline();
        try {
            return pipeline.cleanSuccess(send(link, ctx, params, link.spec().timeout(), Optional.empty()));
        } catch (PeerErrorException e) {
            JsonRpcError error = e.error();
            if (error.code() == JsonRpcError.METHOD_NOT_FOUND) {
                throw ProtocolException.methodNotFound();
            }
            Optional<ProtocolException> version = StatelessRules.versionRule(error);
            if (version.isPresent()) {
                throw version.get();
            }
            ErrorCode fallback = error.code() == JsonRpcError.INVALID_PARAMS ? ErrorCode.VALIDATION_ERROR
                    : ErrorCode.UPSTREAM_ERROR;
            throw pipeline.rpcError(error.code(), pipeline.failure(ctx.method(), Optional.empty(),
                    ErrorPipeline.Said.of(error), fallback, ctx.params()));
        } catch (LocalFailure e) {
            throw pipeline.rpcError(JsonRpcError.INTERNAL_ERROR, e.outcome());
        }
    }

    private static ObjectNode params(RequestContext ctx) {
        ObjectNode params = ctx.params().filter(ObjectNode.class::isInstance).map(p -> ((ObjectNode) p).deepCopy())
                .orElseGet(Json::object);
        if (params.get("_meta") instanceof ObjectNode meta) {
            meta.remove("progressToken"); // the upstream gets a token of its own connection
            // A stateless client's envelope speaks for it, not for the gateway's own upstream connection.
            meta.remove(List.of(ProtocolVersion.META_VERSION, ProtocolVersion.META_CLIENT_CAPABILITIES,
                    ProtocolVersion.META_CLIENT_INFO, ProtocolVersion.META_LOG_LEVEL));
            if (meta.isEmpty()) {
                params.remove("_meta");
            }
        }
        return params;
    }

    /** A failure on the way to the upstream, already recorded: what the client gets instead of an answer. */
    static final class LocalFailure extends Exception {
        private final ErrorPipeline.Outcome outcome;

        LocalFailure(ErrorPipeline.Outcome outcome) {
            super(null, null, false, false);
            this.outcome = outcome;
        }

        ErrorPipeline.Outcome outcome() {
            return outcome;
        }
    }

    /**
     * Sends the client's request upstream and waits: progress from the upstream reaches the client
     * (and keeps the request alive), the client cancelling cancels it upstream, and what the
     * upstream said before answering reaches the client before the answer.
     */
    private JsonNode send(UpstreamLink link, RequestContext ctx, ObjectNode params, Duration timeout,
            Optional<String> tool) throws Exception {
        return send(link, ctx, params, timeout, tool, permit -> permit.judged(Guard.Verdict.CALLERS_FAULT));
    }

    /**
     * {@link #send(UpstreamLink, RequestContext, ObjectNode, Duration, Optional)}, handing the call's
     * permit to {@code admitted} once the upstream answered (or failed), so a tool call's caller can
     * say how the tool fared once it has read the answer.
     */
    private JsonNode send(UpstreamLink link, RequestContext ctx, ObjectNode params, Duration timeout,
            Optional<String> tool, java.util.function.Consumer<Guard.Permit> admitted) throws Exception {
        ErrorPipeline pipeline = link.pipeline();
        if (StatelessRules.stateless(ctx) && params.path("requestState").asString("").startsWith(ParkedCall.PREFIX)) {
            // A later round of a parked call: its permit was handed out (and the tool judged) in the first.
            return resume(link, ctx, params, tool);
        }
        RequestOptions options = RequestOptions.ofDefaults().withTimeout(timeout)
                .withResetTimeoutOnProgress(true)
                .withProgress(p -> ctx.progress(p.progress(), p.total(), p.message().map(m ->
                        pipeline.cleanNotification(Json.mapper().getNodeFactory().stringNode(m)).asString(""))));
        if (clientRate.isPresent() && tool.isPresent()) {
            io.github.bucket4j.ConsumptionProbe probe = clientRate.get().tryConsumeAndReturnRemaining(1);
            if (!probe.isConsumed()) {
                throw new LocalFailure(pipeline.refused(ctx.method(), tool, new Guard.Refusal(ErrorCode.RATE_LIMITED,
                        "Too many calls from this client; retry later.",
                        Duration.ofNanos(probe.getNanosToWaitForRefill()))));
            }
        }
        services.parked().sweep(); // calls parked past their time give their places back first
        Guard.Permit permit;
        try {
            permit = link.guard().admit(tool);
        } catch (Guard.RefusedException e) {
            throw new LocalFailure(pipeline.refused(ctx.method(), tool, e.refusal()));
        }
        admitted.accept(permit);
        McpClient client;
        try {
            client = statelessClient && StatelessRules.stateless(ctx) ? link.clientForStateless(clientCapabilities)
                    : link.client(upstreamCapabilities());
        } catch (RuntimeException e) {
            permit.unanswered(e);
            throw new LocalFailure(unavailable(link, ctx.method(), tool, e));
        }
        boolean upstreamStateless = client.protocolVersion().stateless();
        ObjectNode sent = upstreamStateless ? withEnvelope(params) : params;
        if (StatelessRules.stateless(ctx) && !upstreamStateless) {
            // A session-based upstream may ask this client something mid-call; a stateless client
            // cannot be asked then, so the call is run as one that can be parked between rounds.
            ParkedCall call = new ParkedCall(link, client, ctx.method(),
                    params.path(nameField(ctx.method())).asString(""), permit);
            try {
                call.start(client.requestAsync(ctx.method(), sent, options));
            } catch (RuntimeException e) {
                call.leave();
                permit.unanswered(e);
                throw new LocalFailure(unavailable(link, ctx.method(), tool, e));
            }
            return awaitParked(link, ctx, call, tool, client);
        }
        Asker asker = this;
        link.enter(client, asker);
        callsUpstream.put(ctx.id(), new Call(client, ctx.params()));
        try {
            OutgoingRequest out;
            try {
                out = client.requestAsync(ctx.method(), sent, options);
            } catch (RuntimeException e) {
                permit.unanswered(e);
                throw new LocalFailure(unavailable(link, ctx.method(), tool, e));
            }
            try {
                JsonNode result = out.get();
                for (int round = 1; upstreamStateless && !StatelessRules.stateless(ctx) && StatelessRules.inputRequired(result); round++) {
                    // A stateless upstream asks for input in its answer; this client is asked, as a
                    // session-based server would have asked it, and the request is sent again.
                    if (round > MAX_INPUT_ROUNDS) {
                        throw new ExecutionException(new dev.warden.core.error.IncompatiblePeerException(
                                "The upstream asked for input more than " + MAX_INPUT_ROUNDS + " times"));
                    }
                    ObjectNode again = sent.deepCopy();
                    again.set("inputResponses", answerInputs(result.path("inputRequests")));
                    again.remove("requestState");
                    if (result.get("requestState") instanceof JsonNode state && state.isString()) {
                        again.set("requestState", state);
                    }
                    out = client.requestAsync(ctx.method(), again, options);
                    result = out.get();
                }
                if (upstreamStateless && !StatelessRules.stateless(ctx)) {
                    result = StatelessRules.sessionShaped(result);
                }
                return settled(link, ctx, permit, tool, client, result);
            } catch (InterruptedException e) {
                permit.withdrawn(); // the client gave up, not the upstream
                out.cancel("Cancelled by the client");
                throw e;
            } catch (ExecutionException e) {
                throw failed(link, ctx, permit, tool, e.getCause());
            }
        } finally {
            callsUpstream.remove(ctx.id());
            link.leave(client, asker);
        }
    }

    /**
     * For a session-based client, the asking capabilities its upstream connections declare (see
     * {@link UpstreamLink#asking}): a connection one of them may still use is not idle. Empty for a
     * stateless client, which holds no connection between requests.
     */
    Optional<String> sessionAsking() {
        return statelessClient ? Optional.empty() : Optional.of(UpstreamLink.asking(clientCapabilities));
    }

    /**
     * What the gateway declares to an upstream it connects for this client: a session-based
     * client's own sampling, elicitation and roots capabilities; for a stateless client all three
     * (that connection serves its discover and listen requests; the others go on one declaring
     * what each request declares, see {@link UpstreamLink#clientForStateless}).
     */
    private ObjectNode upstreamCapabilities() {
        if (!statelessClient) {
            return clientCapabilities;
        }
        ObjectNode all = Json.object();
        for (String capability : List.of("sampling", "elicitation", "roots")) {
            all.putObject(capability);
        }
        return all;
    }

    private static String nameField(String method) {
        return "resources/read".equals(method) ? "uri" : "name";
    }

    /** The upstream answered: the permit is released, and its notifications sent so far go first. */
    private static JsonNode settled(UpstreamLink link, RequestContext ctx, Guard.Permit permit, Optional<String> tool,
            McpClient client, JsonNode result) throws InterruptedException {
        permit.answered();
        try {
            client.notificationsHandled().get(5, TimeUnit.SECONDS);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            LOG.log(System.Logger.Level.DEBUG, "notifications of upstream {0} still pending", link.name());
        }
        return result;
    }

    /** What a failed upstream request becomes: the upstream's own error as it said it, or a recorded local failure. */
    private static Exception failed(UpstreamLink link, RequestContext ctx, Guard.Permit permit, Optional<String> tool,
            Throwable cause) {
        ErrorPipeline pipeline = link.pipeline();
        if (cause instanceof PeerErrorException peer) {
            // The upstream answered: it is alive. Whether the tool failed in itself is for the
            // caller to judge once it has read the error (an internal error, or the caller's mistake).
            permit.answered();
            return peer;
        }
        if (cause instanceof MessageTooLargeException) {
            // The server answered, at more length than allowed: a setting, not the server's health.
            permit.answered();
            return new LocalFailure(pipeline.local(ctx.method(), tool, ErrorCode.UPSTREAM_ERROR,
                    "The upstream server's answer is larger than the gateway accepts (maxMessageBytes, "
                            + "--max-message-bytes for warden wrap, is " + link.maxMessageBytes() + " bytes).",
                    cause));
        }
        permit.unanswered(cause);
        if (cause instanceof RequestTimeoutException) {
            return new LocalFailure(pipeline.local(ctx.method(), tool, ErrorCode.TIMEOUT,
                    "The upstream server did not answer in time.", cause));
        }
        return new LocalFailure(unavailable(link, ctx.method(), tool, cause));
    }

    /** How long a parked call waits for its client's next round: as long as the upstream would wait, at least five minutes. */
    private static Duration parkFor(UpstreamLink link) {
        Duration timeout = link.spec().timeout();
        return timeout.compareTo(Duration.ofMinutes(5)) > 0 ? timeout : Duration.ofMinutes(5);
    }

    /**
     * The next event of a parked call, for this round of its client: the upstream's answer ends it;
     * a question parks it and goes to the client as an input-required result.
     */
    private JsonNode awaitParked(UpstreamLink link, RequestContext ctx, ParkedCall call, Optional<String> tool,
            McpClient client) throws Exception {
        Optional<ObjectNode> questions;
        try {
            questions = call.next(clientCapabilities);
        } catch (InterruptedException | ProtocolException e) {
            // This round's client went away, or cannot give what is asked: the call ends, upstream too.
            services.parked().forget(call);
            call.abandon(e instanceof InterruptedException ? "Cancelled by the client"
                    : "The client lacks a capability the call needs");
            throw e;
        }
        if (questions.isPresent()) {
            Optional<ParkedCalls.Full> full = services.parked().park(call, clientKey, parkFor(link),
                    link.parkedShare());
            if (full.isPresent()) {
                call.abandon("The gateway holds too many calls waiting for input");
                String limit = switch (full.get()) {
                    case CLIENT -> "parkedCallsPerClient";
                    case GATEWAY -> "parkedCalls";
                    case UPSTREAM -> "parkedShareOfMaxConcurrent";
                };
                services.metrics().limitRefused(link.name(), limit);
                throw new LocalFailure(link.pipeline().local(ctx.method(), tool, ErrorCode.RATE_LIMITED,
                        switch (full.get()) {
                            case CLIENT -> "This client has too many calls waiting for input; retry later.";
                            case GATEWAY -> "The gateway holds too many calls waiting for input; retry later.";
                            case UPSTREAM -> "This server has too many calls waiting for input; retry later.";
                        },
                        new IllegalStateException("parked calls full: " + limit)));
            }
            return questions.get();
        }
        services.parked().forget(call);
        call.leave();
        try {
            return settled(link, ctx, call.permit(), tool, client, call.upstream().get());
        } catch (ExecutionException e) {
            throw failed(link, ctx, call.permit(), tool, e.getCause());
        }
    }

    /** A stateless client's next round of a parked call: its answers go to the upstream's questions. */
    private JsonNode resume(UpstreamLink link, RequestContext ctx, ObjectNode params, Optional<String> tool)
            throws Exception {
        String token = params.path("requestState").asString("");
        ProtocolException unknown = ProtocolException.invalidParams(
                "Invalid params: the requestState is unknown, expired or for another request");
        ParkedCall call = services.parked().take(token).orElseThrow(() -> unknown);
        if (!call.resumableBy(link, ctx.method(), params.path(nameField(ctx.method())).asString(""))) {
            call.abandon("Resumed by a different request");
            throw unknown;
        }
        call.answer(params.path("inputResponses"));
        return awaitParked(link, ctx, call, tool, call.session());
    }

    /** Rounds of input a stateless upstream may ask for in one request. */
    static final int MAX_INPUT_ROUNDS = 16;

    /**
     * A stateless upstream learns who asks from each request: this client's capabilities (so it
     * asks only for input this client can give) and the log level it set.
     */
    private ObjectNode withEnvelope(ObjectNode params) {
        ObjectNode copy = params.deepCopy();
        ObjectNode meta = copy.get("_meta") instanceof ObjectNode m ? m : copy.putObject("_meta");
        meta.set(ProtocolVersion.META_CLIENT_CAPABILITIES, clientCapabilities.deepCopy());
        logLevel.ifPresent(level -> meta.put(ProtocolVersion.META_LOG_LEVEL, level));
        return copy;
    }

    /** Each input request put to this client as the request it stands for; a refusal fails the whole request. */
    private ObjectNode answerInputs(JsonNode inputRequests) throws Exception {
        if (!(inputRequests instanceof ObjectNode requests) || requests.isEmpty()) {
            throw new ExecutionException(new dev.warden.core.error.IncompatiblePeerException(
                    "The upstream asked for input without saying what"));
        }
        ObjectNode answers = Json.object();
        for (Map.Entry<String, JsonNode> entry : requests.properties()) {
            String method = entry.getValue().path("method").asString("");
            if (Lifecycle.capabilityFor(method).isEmpty()) {
                throw new ExecutionException(new dev.warden.core.error.IncompatiblePeerException(
                        "The upstream asked for input of an unknown kind"));
            }
            ObjectNode p = entry.getValue().get("params") instanceof ObjectNode o ? o.deepCopy() : Json.object();
            answers.set(entry.getKey(), askClient(method, p, Optional.empty())); // on the handler's own stream
        }
        return answers;
    }

    private static ErrorPipeline.Outcome unavailable(UpstreamLink link, String method, Optional<String> tool,
            Throwable cause) {
        if (cause instanceof ConnectionSlots.AtCapacity full) {
            // Its message is the gateway's own words, naming the setting.
            return link.pipeline().local(method, tool, ErrorCode.RATE_LIMITED, full.getMessage(), cause);
        }
        String message = cause instanceof AuthorizationFailedException
                ? "The gateway could not authorize with the upstream server."
                : "The upstream server is unavailable.";
        return link.pipeline().local(method, tool, ErrorCode.UPSTREAM_ERROR, message, cause);
    }
}
