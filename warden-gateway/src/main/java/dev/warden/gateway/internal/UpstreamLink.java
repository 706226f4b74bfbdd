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
 * The gateway's client connections to one upstream, shared by every client connection: connected
 * on first use (and again after a crash, with the upstream's backoff), their notifications fanned
 * out to the client connections, and their own requests (sampling, elicitation, roots) sent to the
 * one caller with a request in flight on that connection, the only one they can be about. A
 * session-based upstream gets one connection per set of asking capabilities (sampling, elicitation,
 * roots) its clients declare (the extra ones closed when idle, see {@link #closeIdle()}); a
 * stateless client of an upstream that speaks its version too gets that stateless connection.
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
    private final GatewayMetrics metrics;
    private final ConnectionSlots slots;
    /** The connections this link made and holds a place in {@link #slots} for, until it closes them. */
    private final Set<McpClient> held = ConcurrentHashMap.newKeySet();
    /** Who has requests in flight on each of the upstream's sessions: its questions can only be about one of them. */
    private final ConcurrentHashMap<McpClient, Askers> askers = new ConcurrentHashMap<>();

    public UpstreamLink(Upstream spec, ErrorPipeline pipeline, GatewayMetrics metrics) {
        this(spec, pipeline, metrics, new ConnectionSlots(spec.name(), spec.limits().maxConnections()));
    }

    /** @param slots the connections this upstream may have open, shared with its other links (per-client ones) */
    public UpstreamLink(Upstream spec, ErrorPipeline pipeline, GatewayMetrics metrics, ConnectionSlots slots) {
        this.spec = spec;
        this.pipeline = pipeline;
        this.metrics = metrics;
        this.slots = slots;
        this.guard = new Guard(spec.name(), spec.limits(), java.time.Clock.systemUTC());
        metrics.breaker(spec.name(), guard.breaker());
    }

    Guard guard() {
        return guard;
    }

    /** The largest message accepted from this upstream (the setting a refusal names). */
    int maxMessageBytes() {
        return spec.maxMessageBytes();
    }

    /**
     * Whether this link serves exactly one client connection ({@code warden wrap}, or a per-client
     * upstream): then everything the server asks goes to that client, as it would directly.
     */
    private volatile boolean dedicated;

    /** Marks this link as serving one client only (see {@link #dedicated}). */
    public UpstreamLink dedicate() {
        dedicated = true;
        return this;
    }

    public Upstream spec() {
        return spec;
    }

    /** How many calls may wait for their clients' input on this upstream: half its concurrent places, at least one. */
    int parkedShare() {
        return Math.max(1, spec.limits().maxConcurrent() / 2);
    }

    public String name() {
        return spec.name();
    }

    public ErrorPipeline pipeline() {
        return pipeline;
    }

    /**
     * The connection a session-based client's requests go on, connecting first if need be (throws
     * what connecting threw): one that declared the sampling, elicitation and roots this client
     * declares, so servers that offer tools by their client's capabilities offer what this client
     * can use, and ask only what it can answer, whoever came first. A stateless upstream has one
     * connection, and each request says who asks.
     */
    McpClient client(ObjectNode clientCapabilities) {
        McpClient primary = primary(clientCapabilities);
        return primary.protocolVersion().stateless() ? primary : sessionFor(clientCapabilities);
    }

    /** The connection {@link #client(ObjectNode)} would give, if it is connected; never connects. */
    Optional<McpClient> connectedFor(ObjectNode clientCapabilities) {
        McpClient primary = client;
        if (primary == null || primary.protocolVersion().stateless()
                || asking(clientCapabilities).equals(primaryAsking)) {
            return Optional.ofNullable(primary);
        }
        return Optional.ofNullable(others.get(asking(clientCapabilities))).map(Extra::client);
    }

    /**
     * The first connection, made with the capabilities of the first client to need it: the one
     * resource subscriptions are kept on (counted across clients) and, for a stateless upstream,
     * the only one.
     */
    McpClient primary(ObjectNode clientCapabilities) {
        McpClient c = client;
        if (c != null) {
            return c;
        }
        synchronized (connecting) {
            if (client == null) {
                if (closed) {
                    throw new IllegalStateException("the gateway is closing");
                }
                // The newest session-based version first (logging levels and subscriptions then cross as
                // they are); an upstream that only speaks the stateless one is met there and bridged.
                Askers mine = new Askers();
                McpClient.Builder builder = builder(dev.warden.core.mcp.ProtocolVersion.latestSessionBased(),
                        clientCapabilities, mine);
                McpClient connected = connect(builder);
                registered(connected, mine);
                primaryAsking = asking(clientCapabilities);
                client = connected;
                LOG.log(System.Logger.Level.INFO, "upstream {0} connected ({1})", spec.name(),
                        client.protocolVersion().wire());
                if (client.protocolVersion().stateless()) {
                    relisten();
                }
            }
            return client;
        }
    }

    private McpClient.Builder builder(dev.warden.core.mcp.ProtocolVersion version, ObjectNode clientCapabilities,
            Askers askers) {
        McpClient.Builder builder = McpClient.builder("warden-gateway", version())
                .protocolVersion(version)
                .requestTimeout(spec.timeout())
                .reconnect(spec.reconnect())
                .boundary(pipeline.boundary())
                .onNotification((method, params) -> fanOut(method, params, askers));
        if (clientCapabilities.has("sampling")) {
            builder.onSampling(p -> askers.ask("sampling/createMessage", p));
        }
        if (clientCapabilities.has("elicitation")) {
            builder.onElicitation(p -> askers.ask("elicitation/create", p));
        }
        if (clientCapabilities.has("roots")) {
            builder.onRootsList(p -> askers.ask("roots/list", p));
        }
        // A server that asks what was not declared is answered in its caller's terms: -32601 for a
        // session-based client that did not declare it (never sent on), -32021 ending a stateless one's call.
        for (String method : List.of("sampling/createMessage", "elicitation/create", "roots/list")) {
            builder.onUndeclared(method, p -> askers.ask(method, p));
        }
        return builder;
    }

    /** A second, stateless connection for stateless clients, if the upstream speaks that version too. */
    private volatile McpClient stateless;
    private volatile boolean statelessRefused;

    /**
     * The connection a stateless client's requests go on: the upstream in the client's own version
     * when it speaks it (then an input-required answer, its keys and its request state reach the
     * client exactly as the upstream made them), else a session-based one declaring what this
     * client declares, bridged. Asked once per upstream: a session-only upstream is probed with
     * server/discover on a connection of its own (for a stdio upstream, one extra start), which
     * stays as the session for clients that declare every asking capability.
     */
    McpClient clientForStateless(ObjectNode clientCapabilities) {
        McpClient primary = primary(allAsking());
        if (primary.protocolVersion().stateless()) {
            return primary;
        }
        if (statelessRefused) {
            return sessionFor(clientCapabilities);
        }
        McpClient c = stateless;
        if (c != null) {
            return c;
        }
        synchronized (connecting) {
            if (stateless == null && !statelessRefused && !closed) {
                try {
                    Askers probeAskers = new Askers();
                    McpClient probe = connect(builder(dev.warden.core.mcp.ProtocolVersion.V2026_07_28, allAsking(),
                            probeAskers));
                    if (probe.protocolVersion().stateless()) {
                        stateless = registered(probe, probeAskers);
                        LOG.log(System.Logger.Level.INFO, "upstream {0} also connected ({1}) for stateless clients",
                                spec.name(), probe.protocolVersion().wire());
                    } else {
                        // Session-based after all, declaring every asking capability: kept for the
                        // stateless clients that declare them all, unless the first connection did.
                        String all = asking(allAsking());
                        if (all.equals(primaryAsking) || others.containsKey(all)) {
                            disconnect(probe);
                        } else {
                            others.put(all, new Extra(registered(probe, probeAskers)));
                        }
                        statelessRefused = true;
                    }
                } catch (ConnectionSlots.AtCapacity e) {
                    throw e; // not an answer about the stateless version: asked again later
                } catch (RuntimeException e) {
                    statelessRefused = true;
                    LOG.log(System.Logger.Level.DEBUG, "upstream {0} does not speak the stateless version", spec.name());
                }
            }
            if (stateless != null) {
                return stateless;
            }
        }
        return sessionFor(clientCapabilities);
    }

    /** What a connection for stateless clients declares while the gateway does not yet know who asks: all of it. */
    private static ObjectNode allAsking() {
        ObjectNode all = Json.object();
        all.putObject("sampling");
        all.putObject("elicitation");
        all.putObject("roots");
        return all;
    }

    /** The session-based connection's declared asking capabilities, as {@link #asking(ObjectNode)} names them. */
    private volatile String primaryAsking = "";

    /** Session-based connections besides the first, by the asking capabilities their clients declare (at most seven). */
    private final ConcurrentHashMap<String, Extra> others = new ConcurrentHashMap<>();

    /** An extra connection, and when it was last handed to a caller ({@link System#nanoTime()}). */
    private record Extra(McpClient client, java.util.concurrent.atomic.AtomicLong handedOut) {

        Extra(McpClient client) {
            this(client, new java.util.concurrent.atomic.AtomicLong(System.nanoTime()));
        }

        McpClient handOut() {
            handedOut.set(System.nanoTime());
            return client;
        }
    }

    /**
     * The session-based connection that declared exactly the sampling, elicitation and roots this
     * client declares (the first connection, if that is it). Shared by every client declaring the same.
     */
    private McpClient sessionFor(ObjectNode clientCapabilities) {
        String key = asking(clientCapabilities);
        McpClient primary = client;
        if (primary != null && key.equals(primaryAsking)) {
            return primary;
        }
        Extra extra = others.get(key);
        if (extra != null) {
            McpClient c = extra.handOut();
            // Still there after the use was noted: closeIdle() will see that use (it removes before it looks).
            if (others.get(key) == extra) {
                return c;
            }
        }
        synchronized (connecting) {
            extra = others.get(key);
            if (extra == null) {
                if (closed) {
                    throw new IllegalStateException("the gateway is closing");
                }
                Askers mine = new Askers();
                McpClient c = connect(builder(dev.warden.core.mcp.ProtocolVersion.latestSessionBased(),
                        clientCapabilities, mine));
                extra = new Extra(registered(c, mine));
                others.put(key, extra);
                LOG.log(System.Logger.Level.INFO, "upstream {0} connected again, for clients offering [{1}]",
                        spec.name(), key);
                watchIdle();
            }
            return extra.handOut();
        }
    }

    private Thread idleWatch;

    /** Started with the first extra connection: looks for idle ones a few times per idle period (at most every 30 s). */
    private void watchIdle() {
        if (idleWatch != null || closed) {
            return;
        }
        long period = Math.clamp(spec.closeIdleAfter().toMillis() / 4, 10, 30_000);
        idleWatch = Thread.ofVirtual().name("warden-idle-" + spec.name()).start(() -> {
            try {
                while (!closed) {
                    Thread.sleep(period);
                    closeIdle();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /**
     * Closes the extra connections (not the first, which keeps the subscriptions) that no connected
     * session-based client declares the capabilities of, that carry no request, and that were not
     * handed out for {@link Upstream#closeIdleAfter()}: for stdio a process each, which would
     * otherwise stay for as long as the gateway runs. A client that needs one again connects anew.
     * Public for the gateway's tests; the watcher calls it.
     */
    public void closeIdle() {
        long idleNanos = spec.closeIdleAfter().toNanos();
        List<McpClient> idle = new java.util.ArrayList<>();
        synchronized (connecting) {
            for (java.util.Map.Entry<String, Extra> entry : List.copyOf(others.entrySet())) {
                String key = entry.getKey();
                Extra extra = entry.getValue();
                long used = extra.handedOut().get();
                Askers its = askers.get(extra.client());
                if (System.nanoTime() - used < idleNanos || its != null && !its.inFlight.isEmpty()
                        || connections.stream().anyMatch(p -> p.sessionAsking().filter(key::equals).isPresent())) {
                    continue;
                }
                others.remove(key, extra);
                if (extra.handedOut().get() != used) {
                    others.put(key, extra); // handed out meanwhile (sessionFor noted it before looking again)
                    continue;
                }
                askers.remove(extra.client());
                idle.add(extra.client());
                LOG.log(System.Logger.Level.INFO, "upstream {0}: closing its connection for clients offering [{1}],"
                        + " unused for {2}", spec.name(), key, spec.closeIdleAfter());
            }
        }
        idle.forEach(this::disconnect); // outside the lock: stopping a process may take a moment
    }

    /**
     * Connects with a place among the upstream's {@code maxConnections}, or is refused
     * ({@link ConnectionSlots.AtCapacity}, counted in the metrics) when every place is taken.
     */
    private McpClient connect(McpClient.Builder builder) {
        try {
            slots.take();
        } catch (ConnectionSlots.AtCapacity e) {
            metrics.limitRefused(spec.name(), "maxConnections");
            LOG.log(System.Logger.Level.WARNING, "upstream {0}: a connection refused, {1} are open (maxConnections)",
                    spec.name(), spec.limits().maxConnections());
            throw e;
        }
        try {
            McpClient c = builder.connect(spec.connector());
            held.add(c);
            return c;
        } catch (RuntimeException e) {
            slots.give();
            throw e;
        }
    }

    /** Closes a connection this link made, giving its place back. */
    private void disconnect(McpClient c) {
        try {
            c.close();
        } finally {
            if (held.remove(c)) {
                slots.give();
            }
        }
    }

    /** The asking capabilities (sampling, elicitation, roots) a client declares, sorted, comma-separated. */
    static String asking(ObjectNode clientCapabilities) {
        return java.util.stream.Stream.of("elicitation", "roots", "sampling").filter(clientCapabilities::has)
                .collect(java.util.stream.Collectors.joining(","));
    }

    /** Whether the upstream speaks a stateless version (2026-07-28): no session, so the gateway bridges. */
    boolean speaksStateless() {
        McpClient c = client;
        return c != null && c.protocolVersion().stateless();
    }

    // ---- subscriptions of a stateless upstream -------------------------------------------------

    /** Resource URIs clients subscribed to, with who did (a connection, or one of its listen streams). */
    private final ConcurrentHashMap<String, Set<Object>> subscribed = new ConcurrentHashMap<>();
    private final Object listening = new Object();
    private dev.warden.core.session.OutgoingRequest listen;
    /** How long one listen request may stay open before the gateway opens the next; a year, in effect. */
    private static final java.time.Duration LISTEN_FOR = java.time.Duration.ofDays(365);

    /**
     * One more subscriber of a resource. True when it is the first: a session-based upstream is
     * then asked to subscribe (by the caller, who maps its refusal); a stateless one hears of it on
     * the listen stream.
     */
    boolean subscribe(Object subscriber, String uri) {
        boolean first;
        synchronized (listening) {
            Set<Object> who = subscribed.computeIfAbsent(uri, u -> ConcurrentHashMap.newKeySet());
            first = who.isEmpty();
            who.add(subscriber);
        }
        if (first && speaksStateless()) {
            relisten();
        }
        return first;
    }

    /**
     * One subscriber fewer. True when it was the last: a session-based upstream is then asked to
     * unsubscribe, by the caller if {@code caller}, else here in the background (a client that
     * went away).
     */
    boolean unsubscribe(Object subscriber, String uri, boolean caller) {
        boolean last = false;
        synchronized (listening) {
            Set<Object> who = subscribed.get(uri);
            if (who != null && who.remove(subscriber) && who.isEmpty()) {
                subscribed.remove(uri);
                last = true;
            }
        }
        if (last && speaksStateless()) {
            relisten();
        } else if (last && !caller && client != null) {
            McpClient c = client;
            Thread.ofVirtual().start(() -> {
                try {
                    c.request("resources/unsubscribe", Json.object().put("uri", uri));
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.DEBUG, "upstream {0} did not unsubscribe", spec.name());
                }
            });
        }
        return last;
    }

    /**
     * Sessions bring list changes and resource updates unasked; a stateless server sends them only
     * on a {@code subscriptions/listen} request naming them. The gateway keeps one open per
     * upstream with everything its clients could want (a new one when the subscriptions change,
     * and again after the stream ends), and fans out what arrives like a session's notifications.
     */
    private void relisten() {
        McpClient c = client;
        if (c == null || closed || !c.protocolVersion().stateless()) {
            return;
        }
        ObjectNode caps = c.serverCapabilities();
        ObjectNode params = Json.object();
        ObjectNode filter = params.putObject("notifications");
        if (caps.path("tools").path("listChanged").asBoolean(false)) {
            filter.put("toolsListChanged", true);
        }
        if (caps.path("prompts").path("listChanged").asBoolean(false)) {
            filter.put("promptsListChanged", true);
        }
        if (caps.path("resources").path("listChanged").asBoolean(false)) {
            filter.put("resourcesListChanged", true);
        }
        if (caps.path("resources").path("subscribe").asBoolean(false) && !subscribed.isEmpty()) {
            subscribed.keySet().stream().sorted().limit(1000).forEach(filter.putArray("resourceSubscriptions")::add);
        }
        synchronized (listening) {
            if (listen != null) {
                listen.cancel("Replaced by a new subscription");
                listen = null;
            }
            if (filter.isEmpty()) {
                return;
            }
            dev.warden.core.session.OutgoingRequest next;
            try {
                next = c.requestAsync("subscriptions/listen", params,
                        dev.warden.core.session.RequestOptions.ofDefaults().withTimeout(LISTEN_FOR));
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "upstream {0} refused a subscription", spec.name());
                return;
            }
            listen = next;
            next.whenComplete((v, e) -> {
                boolean current;
                synchronized (listening) {
                    current = listen == next;
                    if (current) {
                        listen = null;
                    }
                }
                if (current && !closed && !(e instanceof java.util.concurrent.CancellationException)) {
                    // The stream ended under us (the server restarted, say): listen again, not in a tight loop.
                    LOG.log(System.Logger.Level.DEBUG, "upstream {0} ended its subscription stream", spec.name());
                    Thread.ofVirtual().start(() -> {
                        try {
                            Thread.sleep(1000);
                            relisten();
                        } catch (InterruptedException ignored) {
                            Thread.currentThread().interrupt();
                        }
                    });
                }
            });
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
        askers.values().forEach(a -> a.inFlight.remove(connection));
        for (String uri : List.copyOf(subscribed.keySet())) {
            unsubscribe(connection, uri, false);
        }
    }

    private McpClient registered(McpClient session, Askers its) {
        its.session = session;
        askers.put(session, its);
        return session;
    }

    /** {@code asker} has a request in flight on {@code session}, one of this upstream's connections. */
    void enter(McpClient session, Asker asker) {
        askers.computeIfAbsent(session, s -> new Askers()).inFlight
                .computeIfAbsent(asker, c -> new AtomicInteger()).incrementAndGet();
    }

    void leave(McpClient session, Asker asker) {
        Askers a = askers.get(session);
        if (a != null) {
            a.inFlight.computeIfPresent(asker, (c, n) -> n.decrementAndGet() <= 0 ? null : n);
        }
    }

    /** The client connections and parked calls with requests in flight on one session of the upstream. */
    private final class Askers {

        final ConcurrentHashMap<Asker, AtomicInteger> inFlight = new ConcurrentHashMap<>();
        /** The session, once connected (its handlers are made before it exists). */
        volatile McpClient session;

        /**
         * A request from the upstream to a client: only one with a request in flight on this
         * session can have caused it; with none or several it cannot be routed and is refused.
         */
        ObjectNode ask(String method, ObjectNode params) throws Exception {
            List<Asker> candidates = inFlight.keySet().stream().filter(a -> !a.waitingForClient()).toList();
            // On a shared connection, never a client's own roots, where another client could read
            // them; except for a stateless client's parked call asked alone: the question goes back
            // to that client inside its own call's result (input required), the round the
            // 2026-07-28 protocol defines for it, and its answer serves that call.
            boolean ownCallAsks = candidates.size() == 1 && candidates.get(0) instanceof ParkedCall;
            if (!dedicated && "roots/list".equals(method) && !ownCallAsks) {
                return sharedRoots();
            }
            if (candidates.size() == 1) {
                return candidates.get(0).ask(session, method, params);
            }
            List<ProxyConnection> only = List.copyOf(connections);
            if (dedicated && candidates.isEmpty() && only.size() == 1) {
                // One client, no call in flight (roots at start, after roots/list_changed): it is the one asked.
                return only.get(0).ask(session, method, params);
            }
            throw ProtocolException.internal("The gateway cannot tell which client this request is for", ErrorCode.UPSTREAM_ERROR);
        }
    }

    /**
     * A shared connection's {@code roots/list}: the roots configured for this upstream, else none.
     * Never a client's own: what the server hears here it may tell any client on the connection
     * (a tool that lists its roots, a path it accepts), and which client a question is for cannot
     * be told on a shared connection (a client's {@code roots/list_changed} makes the server ask in
     * the middle of another client's call). A client whose roots the server should follow gets a
     * connection of its own ({@code perClient: true}).
     */
    private ObjectNode sharedRoots() {
        ObjectNode answer = Json.object();
        tools.jackson.databind.node.ArrayNode list = answer.putArray("roots");
        spec.roots().ifPresent(roots -> roots.forEach(uri -> list.addObject().put("uri", uri)));
        return answer;
    }

    /** Whether this link serves one client connection only (then its roots are that client's to give). */
    boolean dedicated() {
        return dedicated;
    }

    /**
     * An upstream connection's notification, to the client connections: a session-based client
     * hears its own connection (resource updates come on the first one, where subscriptions are
     * kept); a stateless one hears them all (its listen streams want any list change).
     */
    private void fanOut(String method, Optional<JsonNode> params, Askers from) {
        if ("notifications/subscriptions/acknowledged".equals(method)) {
            return; // the gateway's own listen stream, not news for the clients
        }
        JsonNode body = params.orElseGet(Json::object);
        if ("notifications/message".equals(method)) {
            // A dedicated link has one client: what it sent in its calls in flight is its own.
            List<ProxyConnection> only = dedicated && from.session != null ? List.copyOf(connections) : List.of();
            body = only.size() == 1 ? pipeline.cleanNotification(body, only.get(0).sentDuringCallsOn(from.session))
                    : pipeline.cleanNotification(body);
        }
        for (ProxyConnection connection : connections) {
            connection.fromUpstream(this, method, body, Optional.ofNullable(from.session));
        }
    }

    @Override
    public void close() {
        closed = true;
        synchronized (connecting) {
            if (idleWatch != null) {
                idleWatch.interrupt();
            }
        }
        others.values().forEach(extra -> disconnect(extra.client()));
        McpClient second = stateless;
        if (second != null) {
            disconnect(second);
        }
        synchronized (listening) {
            if (listen != null) {
                listen.cancel("The gateway is closing");
            }
        }
        McpClient c = client;
        if (c != null) {
            disconnect(c);
        }
    }
}
