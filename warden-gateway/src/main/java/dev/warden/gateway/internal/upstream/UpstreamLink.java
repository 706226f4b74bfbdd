package dev.warden.gateway.internal.upstream;

import dev.warden.client.McpClient;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Implementation;
import dev.warden.core.mcp.Listening;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.mcp.Tools;
import dev.warden.gateway.config.Upstream;
import dev.warden.gateway.internal.failure.ErrorPipeline;
import dev.warden.gateway.internal.limits.ConnectionSlots;
import dev.warden.gateway.internal.limits.Guard;
import dev.warden.gateway.internal.limits.SharedState;
import dev.warden.gateway.internal.metrics.GatewayMetrics;
import dev.warden.telemetry.Channel;
import dev.warden.telemetry.McpNames;
import dev.warden.telemetry.McpTelemetry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
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
 * One upstream as every client connection sees it: its settings, error pipeline and guard; its
 * connections ({@link UpstreamPool}, connected on first use and again after a crash, with the
 * upstream's backoff; idle extra ones closed by the gateway's clock); their notifications fanned
 * out to the client connections; their own requests (sampling, elicitation, roots) sent to the one
 * caller with a request in flight on that connection ({@link QuestionRouting}), the only one they
 * can be about; and the resource subscriptions its clients share ({@link UpstreamSubscriptions}).
 */
public final class UpstreamLink implements AutoCloseable {

    private final Upstream spec;
    private final McpTelemetry telemetry;
    private final ErrorPipeline pipeline;
    private final Guard guard;
    private final Set<ClientConnection> connections = ConcurrentHashMap.newKeySet();
    private final QuestionRouting questions = new QuestionRouting(this);
    private final UpstreamPool pool;
    private final UpstreamSubscriptions subscriptions;
    /**
     * Whether this link serves exactly one client connection ({@code warden wrap}, or a per-client
     * upstream): then everything the server asks goes to that client, as it would directly.
     */
    private volatile boolean dedicated;
    /** Whether the gateway itself serves one client, ever ({@code warden wrap}). */
    private volatile boolean wholly;
    /**
     * Who a dedicated link's connections introduce themselves as: its one client, by the
     * {@code clientInfo} it gave (servers show, log and sometimes behave by that name). A shared
     * link gives the gateway's own name: its one connection speaks for several clients and outlives
     * the one that opened it, so any one client's name would tell the server the others are it.
     */
    private volatile Optional<Implementation> clientInfo = Optional.empty();

    /**
     * How long, at most, the connection's users wait for what the gateway learns as the first
     * connection is made, all of them together from that moment: long enough for a server that
     * lists its tools at once, short enough that one which never answers holds the first client's
     * initialize back only this long (the listing goes on, and counts when it ends).
     */
    static final Duration LEARN_WAIT = Duration.ofSeconds(2);
    private static final CompletableFuture<?> LEARNT = CompletableFuture.completedFuture(null);
    private final Learner learner;
    /** Ends when the learning does, or {@link #LEARN_WAIT} after the first connection was made. */
    private volatile CompletableFuture<?> learning = LEARNT;

    /**
     * @param slots the connections this upstream may have open, shared with its other links (per-client ones)
     * @param clock what says when an extra connection has been idle long enough to close, and when
     *     a paused breaker lets calls through again
     */
    public UpstreamLink(Upstream spec, ErrorPipeline pipeline, GatewayMetrics metrics, ConnectionSlots slots,
            Clock clock) {
        this(spec, pipeline, metrics, slots, clock, SharedState.LOCAL, McpTelemetry.noop(), Learner.NONE);
    }

    /**
     * @param shared the rates and breakers this gateway shares with its other replicas
     * @param telemetry the gateway's: the spans of the requests sent to this upstream name it
     * @param learner what the gateway learns from this upstream by itself (its tools)
     */
    public UpstreamLink(Upstream spec, ErrorPipeline pipeline, GatewayMetrics metrics, ConnectionSlots slots,
            Clock clock, SharedState shared, McpTelemetry telemetry, Learner learner) {
        this.spec = spec;
        this.telemetry = telemetry.with(McpNames.WARDEN_UPSTREAM, spec.name());
        this.pipeline = pipeline;
        this.learner = learner;
        this.guard = new Guard(spec.name(), spec.limits(), clock, metrics, shared);
        metrics.breaker(spec.name(), guard.breaker());
        this.pool = new UpstreamPool(spec, slots, metrics, this::builder, questions, clock, this::wantedBySession,
                this::firstConnected, this::relisten);
        this.subscriptions = new UpstreamSubscriptions(spec.name(), pool);
    }

    /** Marks this link as serving one client only (see {@link #dedicated}). */
    public UpstreamLink dedicate() {
        dedicated = true;
        return this;
    }

    /** Marks this link as serving the gateway's one client, ever ({@code warden wrap}): see {@link #sole}. */
    public UpstreamLink dedicateWholly() {
        wholly = true;
        return dedicate();
    }

    public Upstream spec() {
        return spec;
    }

    /** The gateway's telemetry for requests to this upstream: each span carries {@code warden.upstream}. */
    public McpTelemetry telemetry() {
        return telemetry;
    }

    /** What this upstream's connections run over (stdio, HTTP), once one was made. */
    public Channel channel() {
        return pool.channel();
    }

    public String name() {
        return spec.name();
    }

    /**
     * The client's {@code clientInfo} from its initialize: what this link's connections say they
     * are from now on, if it is dedicated (else ignored). One without a name or version is not used.
     */
    public void clientIs(JsonNode info) {
        String name = info.path("name").asString("");
        String version = info.path("version").asString("");
        if (!dedicated || name.isBlank() || version.isBlank()) {
            return;
        }
        JsonNode title = info.path("title");
        clientInfo = Optional.of(new Implementation(name, version,
                title.isString() ? Optional.of(title.stringValue()) : Optional.empty()));
    }

    public ErrorPipeline pipeline() {
        return pipeline;
    }

    public Guard guard() {
        return guard;
    }

    /** The largest message accepted from this upstream (the setting a refusal names). */
    public int maxMessageBytes() {
        return spec.maxMessageBytes();
    }

    /** How many calls may wait for their clients' input on this upstream: half its concurrent places, at least one. */
    public int parkedShare() {
        return Math.max(1, spec.limits().maxConcurrent() / 2);
    }

    /** Whether this link serves one client connection only (then its roots are that client's to give). */
    public boolean dedicated() {
        return dedicated;
    }

    /**
     * Whether this link's client is its server's only client ({@code warden wrap}, or a per-client
     * upstream with a server of its own per connection: a stdio process): then all the server
     * keeps (its tasks) is that client's. A per-client link to a remote server is one session of
     * many there, which may share one task store.
     */
    public boolean sole() {
        return dedicated && (wholly || spec.serverPerConnection());
    }

    // ---- connections ---------------------------------------------------------------------------

    /**
     * The connection a session-based client's requests go on, connecting first if need be (throws
     * what connecting threw): one that declared the sampling, elicitation and roots this client
     * declares, so servers that offer tools by their client's capabilities offer what this client
     * can use, and ask only what it can answer, whoever came first. A stateless upstream has one
     * connection, and each request says who asks.
     */
    public McpClient client(ObjectNode clientCapabilities) {
        return afterLearning(pool.client(clientCapabilities));
    }

    /** The connection {@link #client(ObjectNode)} would give, if it is connected; never connects. */
    public Optional<McpClient> connectedFor(ObjectNode clientCapabilities) {
        return pool.connectedFor(clientCapabilities);
    }

    /**
     * The first connection, made with the capabilities of the first client to need it: the one
     * resource subscriptions are kept on (counted across clients) and, for a stateless upstream,
     * the only one.
     */
    public McpClient primary(ObjectNode clientCapabilities) {
        return afterLearning(pool.primary(clientCapabilities));
    }

    /**
     * The connection a stateless client's requests go on: the upstream in the client's own version
     * when it speaks it (then an input-required answer, its keys and its request state reach the
     * client exactly as the upstream made them), else a session-based one declaring what this
     * client declares, bridged. Asked once per upstream: a session-only upstream is probed with
     * server/discover on a connection of its own (for a stdio upstream, one extra start), which
     * stays as the session for clients that declare every asking capability.
     */
    public McpClient clientForStateless(ObjectNode clientCapabilities) {
        return afterLearning(pool.clientForStateless(clientCapabilities));
    }

    /** The first connection is made, not yet handed to anyone: learning starts, bounded by {@link #LEARN_WAIT}. */
    private void firstConnected(McpClient connection) {
        learning = learner.connected(this, connection).copy().completeOnTimeout(null, LEARN_WAIT.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** {@code connection}, once what the gateway learns as it connects is learnt, or {@link #LEARN_WAIT} has passed. */
    private McpClient afterLearning(McpClient connection) {
        CompletableFuture<?> pending = learning;
        if (!pending.isDone()) {
            try {
                pending.get();
            } catch (ExecutionException e) {
                // never: the learner's future ends normally, and so does the timeout's
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return connection;
    }

    private void relisten() {
        subscriptions.relisten();
    }

    /** The first connection if it is connected already; never connects. */
    public Optional<McpClient> connected() {
        return pool.connected();
    }

    /** Whether the upstream speaks a stateless version (2026-07-28): no session, so the gateway bridges. */
    public boolean speaksStateless() {
        return pool.speaksStateless();
    }

    /** Whether a connected session-based client declares these asking capabilities (it may still use that connection). */
    private boolean wantedBySession(String asking) {
        return connections.stream().anyMatch(p -> p.sessionAsking().filter(asking::equals).isPresent());
    }

    private McpClient.Builder builder(ProtocolVersion version, ObjectNode clientCapabilities, Askers askers) {
        McpClient.Builder builder = McpClient.builder(clientInfo.orElseGet(() -> Implementation.of("warden-gateway",
                        version())))
                .protocolVersion(version)
                .requestTimeout(spec.timeout())
                .reconnect(spec.reconnect())
                .boundary(pipeline.boundary())
                // The gateway makes the spans of its upstream calls itself (tracing.UpstreamSpan): it
                // ends them with what it recorded, never with the upstream's words.
                .telemetry(McpTelemetry.noop())
                .sessionTelemetry(telemetry) // its sessions' durations are the gateway's to record
                .traceHeadersFromMeta(true) // the context UpstreamSpan put in _meta goes in the HTTP headers too
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

    private static String version() {
        String v = UpstreamLink.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    // ---- client connections and their questions ------------------------------------------------

    public void register(ClientConnection connection) {
        connections.add(connection);
    }

    public void unregister(ClientConnection connection) {
        connections.remove(connection);
        questions.gone(connection);
        subscriptions.unsubscribeAll(connection);
    }

    /** The client connections using this link now. */
    List<ClientConnection> connections() {
        return List.copyOf(connections);
    }

    /** {@code asker} has a request ({@code method}) in flight on {@code session}, one of this upstream's connections. */
    public void enter(McpClient session, Asker asker, String method) {
        questions.enter(session, asker, method);
    }

    public void leave(McpClient session, Asker asker, String method) {
        questions.leave(session, asker, method);
    }

    /**
     * A shared connection's {@code roots/list}: the roots configured for this upstream, else none.
     * Never a client's own: what the server hears here it may tell any client on the connection
     * (a tool that lists its roots, a path it accepts), and which client a question is for cannot
     * be told on a shared connection (a client's {@code roots/list_changed} makes the server ask in
     * the middle of another client's call). A client whose roots the server should follow gets a
     * connection of its own ({@code perClient: true}).
     */
    ObjectNode sharedRoots() {
        ObjectNode answer = Json.object();
        ArrayNode list = answer.putArray("roots");
        spec.roots().ifPresent(roots -> roots.forEach(uri -> list.addObject().put("uri", uri)));
        return answer;
    }

    /**
     * An upstream connection's notification, to the client connections: a session-based client
     * hears its own connection (resource updates come on the first one, where subscriptions are
     * kept); a stateless one hears them all (its listen streams want any list change).
     */
    private void fanOut(String method, Optional<JsonNode> params, Askers from) {
        if (Listening.ACKNOWLEDGED.equals(method)) {
            return; // the gateway's own listen stream, not news for the clients
        }
        JsonNode body = params.orElseGet(Json::object);
        Optional<McpClient> session = from.session();
        if (Tools.LIST_CHANGED.equals(method)) {
            session.ifPresent(s -> learner.toolsChanged(this, s)); // learnt again, whether or not a client lists
        }
        if ("notifications/message".equals(method)) {
            // A dedicated link has one client: what it sent in its calls in flight is its own.
            List<ClientConnection> only = dedicated && session.isPresent() ? connections() : List.of();
            body = only.size() == 1 ? pipeline.cleanNotification(body, only.get(0).sentDuringCallsOn(session.get()))
                    : pipeline.cleanNotification(body);
        } else if ("notifications/tasks/status".equals(method)) {
            body = pipeline.cleanTask(body);
        }
        // A message about a task is its creator's only (see TaskOwners), on a server with other clients.
        Optional<String> task = "notifications/message".equals(method) && !sole()
                ? params.flatMap(TaskOwners::relatedTask) : Optional.empty();
        for (ClientConnection connection : connections) {
            if (task.isEmpty() || session.filter(s -> connection.created(s, task.get())).isPresent()) {
                connection.fromUpstream(this, method, body, session);
            }
        }
    }

    // ---- resource subscriptions ----------------------------------------------------------------

    /** See {@link UpstreamSubscriptions#subscribe}. */
    public boolean subscribe(Object subscriber, String uri) {
        return subscriptions.subscribe(subscriber, uri);
    }

    /** See {@link UpstreamSubscriptions#unsubscribe}. */
    public boolean unsubscribe(Object subscriber, String uri, boolean caller) {
        return subscriptions.unsubscribe(subscriber, uri, caller);
    }

    @Override
    public void close() {
        pool.close(subscriptions::close);
    }
}
