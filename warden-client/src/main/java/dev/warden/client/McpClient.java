package dev.warden.client;

import dev.warden.client.http.HttpAuthorization;
import dev.warden.client.http.StreamableHttpTransport;
import dev.warden.core.error.AuthorizationFailedException;
import dev.warden.core.error.ConnectionClosedException;
import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.error.IncompatiblePeerException;
import dev.warden.core.error.RequestCancelledException;
import dev.warden.core.error.RequestTimeoutException;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Implementation;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.mcp.Tools;
import dev.warden.core.session.NotificationHandler;
import dev.warden.core.session.OutgoingRequest;
import dev.warden.core.session.RequestOptions;
import dev.warden.core.transport.ProcessTransport;
import dev.warden.core.transport.Transport;
import dev.warden.telemetry.McpTelemetry;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An MCP client over any {@link Transport}: stdio to a subprocess ({@link #stdio}) or Streamable
 * HTTP ({@link #http}). It negotiates the version (and refuses one it does not speak), checks the
 * server's capabilities before using them, validates structured results against the tool's output
 * schema, starts a new session when an HTTP server forgot the old one, and reconnects with backoff
 * when the connection died.
 *
 * <p>Failures come in two kinds that are never confused: what the server reported
 * ({@link dev.warden.core.error.PeerErrorException}, or an {@code isError} result) and what
 * happened here ({@link RequestTimeoutException}, {@link RequestCancelledException},
 * {@link ConnectionClosedException}, {@link IncompatiblePeerException}).
 *
 * <p>The work is split by concern: {@link Handshake} opens a connection, {@link Reconnector} keeps
 * one up, {@link ToolCatalog} holds what the last listing said, {@link ToolCalls} runs a call's
 * input rounds.
 */
public final class McpClient implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(McpClient.class.getName());

    private final ClientConfig config;
    private final Reconnector connections;
    private final ToolCatalog catalog = new ToolCatalog();
    private final ToolCalls toolCalls;

    private McpClient(ClientConfig config, Supplier<Transport> connector) {
        this.config = config;
        this.connections = new Reconnector(config, new Handshake(config, connector), catalog::clear);
        this.toolCalls = new ToolCalls(config, connections, catalog);
    }

    public static Builder builder(String name, String version) {
        return new Builder(name, version);
    }

    /**
     * A client introducing itself with {@code info} (its title too): a proxy speaking for one
     * client of its own gives the server that client's {@code clientInfo}.
     */
    public static Builder builder(Implementation info) {
        return new Builder(info);
    }

    /** Launches {@code command} and speaks stdio to it; its stderr goes to the log, never parsed. */
    public static Supplier<Transport> stdio(List<String> command) {
        return stdio(command, Map.of());
    }

    public static Supplier<Transport> http(URI endpoint) {
        return () -> StreamableHttpTransport.of(endpoint);
    }

    /** Streamable HTTP with headers sent on every request (an API key, say). */
    public static Supplier<Transport> http(URI endpoint, Map<String, String> headers) {
        Map<String, String> copy = Map.copyOf(headers);
        return () -> StreamableHttpTransport.of(endpoint, copy);
    }

    /** Launches {@code command} with extra environment variables; its stderr goes to the log. */
    public static Supplier<Transport> stdio(List<String> command, Map<String, String> environment) {
        List<String> copy = List.copyOf(command);
        Map<String, String> env = Map.copyOf(environment);
        return () -> ProcessTransport.launch(copy, env, Optional.empty(),
                line -> LOG.log(System.Logger.Level.DEBUG, "server stderr: {0}", line));
    }

    /**
     * Streamable HTTP to a server that requires authorization; {@code authorization} (usually
     * {@link dev.warden.client.auth.OAuth}) answers its challenges and keeps the tokens across
     * reconnects. A refusal it cannot fix fails the call with {@link AuthorizationFailedException}.
     */
    public static Supplier<Transport> http(URI endpoint, HttpAuthorization authorization) {
        Objects.requireNonNull(authorization, "authorization");
        return () -> StreamableHttpTransport.of(endpoint, authorization);
    }

    /** Whether the connection is up now (a dead one is replaced at the next call). */
    public boolean isConnected() {
        return connections.current().filter(Connection::isOpen).isPresent();
    }

    public ProtocolVersion protocolVersion() {
        return connections.live().version();
    }

    public Implementation serverInfo() {
        return connections.live().server();
    }

    public ObjectNode serverCapabilities() {
        return connections.live().capabilities().deepCopy();
    }

    public Optional<String> instructions() {
        return connections.live().instructions();
    }

    /** Every tool, all pages; their output schemas are kept to check structured results. */
    public List<Tools.Tool> listTools() {
        requireCapability("tools");
        List<Tools.Tool> tools = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        do {
            ObjectNode params = Json.object();
            cursor.ifPresent(c -> params.put("cursor", c));
            JsonNode page = call("tools/list", params, defaults());
            Tools.ListResult result = Calls.parse(page, Tools.ListResult.class, "tools/list");
            tools.addAll(result.tools());
            cursor = result.nextCursor();
        } while (cursor.isPresent() && tools.size() < 100_000);
        return catalog.listed(tools, connections.live().transport());
    }

    /** Calls a tool with the tool-call defaults ({@link RequestOptions#ofToolCallDefaults}) and the client's timeout. */
    public ToolCallResult callTool(String name, ObjectNode arguments) {
        return callTool(name, arguments, RequestOptions.ofToolCallDefaults().withTimeout(config.requestTimeout()));
    }

    /**
     * Calls a tool and waits. An HTTP server that lost the session gets a new one and the call is
     * sent once more (the first never reached a handler: the server had no session for it).
     */
    public ToolCallResult callTool(String name, ObjectNode arguments, RequestOptions options) {
        return connections.onceMoreIfExpired(() -> callToolAsync(name, arguments, options));
    }

    /**
     * Calls a tool without waiting. Cancelling the future ({@code cancel(true)}) tells the server
     * ({@code notifications/cancelled}) and completes it with {@link java.util.concurrent.CancellationException}.
     */
    public CompletableFuture<ToolCallResult> callToolAsync(String name, ObjectNode arguments, RequestOptions options) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(options, "options");
        requireCapability("tools");
        catalog.requireCallable(name);
        if (!catalog.knows(name)) {
            // Learn the tool's output schema before the call: the check runs when the answer arrives,
            // on the thread that reads the connection, which must not wait for another answer.
            listTools();
        }
        return toolCalls.call(name, arguments, options);
    }

    public void ping() {
        call("ping", Json.object(), defaults());
    }

    /**
     * Any request without waiting, with its own options (a progress listener, timeouts): what a
     * proxy forwards. Cancelling the returned request tells the server.
     */
    public OutgoingRequest requestAsync(String method, ObjectNode params, RequestOptions options) {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(options, "options");
        return send(connections.live(), method, params, options);
    }

    /**
     * Like {@link #requestAsync}, but only on a session-based connection that is up now: empty,
     * and nothing sent, when there is none (or it speaks a stateless version, whose requests a
     * proxy bridges in rounds), instead of connecting or reconnecting first. For a caller that
     * must not block: connecting starts a process or makes HTTP requests and waits for the server.
     */
    public Optional<OutgoingRequest> requestIfConnected(String method, ObjectNode params, RequestOptions options) {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(options, "options");
        return connections.current().filter(c -> c.isOpen() && !c.version().stateless())
                .map(c -> send(c, method, params, options));
    }

    /** A request as a proxy forwards it; a {@code tools/list} page's annotations reach the transport. */
    private static OutgoingRequest send(Connection c, String method, ObjectNode params, RequestOptions options) {
        OutgoingRequest request = c.session().request(method, c.stamp(params), options);
        if ("tools/list".equals(method)) {
            c.transport().requestMetadata().ifPresent(metadata ->
                    request.thenAccept(page -> ToolCatalog.pageListed(page, metadata)));
        }
        return request;
    }

    /** Completes once the server's notifications received so far have reached the {@code onNotification} handler. */
    public CompletableFuture<Void> notificationsHandled() {
        return connections.current().map(c -> c.session().notificationsHandled())
                .orElseGet(() -> CompletableFuture.completedFuture(null));
    }

    /** A notification to the server (what a proxy forwards from its own client). */
    public void notify(String method, ObjectNode params) {
        Objects.requireNonNull(method, "method");
        Connection c = connections.live();
        c.session().notify(method, c.stamp(params));
    }

    /** Any request, for methods this class has no method for; the result as received. */
    public JsonNode request(String method, ObjectNode params) {
        return call(method, params, defaults());
    }

    @Override
    public void close() {
        connections.close();
    }

    private RequestOptions defaults() {
        return RequestOptions.ofDefaults().withTimeout(config.requestTimeout());
    }

    private JsonNode call(String method, ObjectNode params, RequestOptions options) {
        return connections.onceMoreIfExpired(() -> {
            Connection c = connections.live();
            return c.session().request(method, c.stamp(params), options);
        });
    }

    private void requireCapability(String capability) {
        if (!connections.live().capabilities().has(capability)) {
            throw new IncompatiblePeerException("The server does not offer " + capability);
        }
    }

    public static final class Builder {
        private final Implementation info;
        private Duration requestTimeout = RequestOptions.DEFAULT_TIMEOUT;
        private ReconnectPolicy reconnect = ReconnectPolicy.ofDefaults();
        private ProtocolVersion protocolVersion = ProtocolVersion.latest();
        private final Map<String, ClientRequestHandler> handlers = new LinkedHashMap<>();
        private ErrorBoundary boundary = ErrorBoundary.ofDefaults();
        private final Map<String, ClientRequestHandler> undeclared = new LinkedHashMap<>();
        private Optional<NotificationHandler> notifications = Optional.empty();
        private ClientConfig.Pause pause = Thread::sleep;
        private McpTelemetry telemetry = McpTelemetry.ofGlobal();
        private boolean traceHeadersFromMeta;
        private Optional<McpTelemetry> sessionTelemetry = Optional.empty();

        private Builder(String name, String version) {
            this(new Implementation(requireText(name, "name"), requireText(version, "version"), Optional.empty()));
        }

        private Builder(Implementation info) {
            this.info = Objects.requireNonNull(info, "info");
            requireText(info.name(), "name");
            requireText(info.version(), "version");
        }

        public Builder requestTimeout(Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("requestTimeout must be positive, got " + timeout);
            }
            this.requestTimeout = timeout;
            return this;
        }

        public Builder reconnect(ReconnectPolicy policy) {
            this.reconnect = Objects.requireNonNull(policy, "reconnect");
            return this;
        }

        /**
         * The newest version to use (by default the newest this client speaks). A stateless version
         * is tried first with server/discover; a server that does not speak it gets initialize with
         * the newest session-based version.
         */
        public Builder protocolVersion(ProtocolVersion version) {
            this.protocolVersion = Objects.requireNonNull(version, "protocolVersion");
            return this;
        }

        /** Declares the sampling capability and answers {@code sampling/createMessage}. */
        public Builder onSampling(ClientRequestHandler handler) {
            handlers.put("sampling/createMessage", Objects.requireNonNull(handler, "onSampling"));
            return this;
        }

        /** Declares the elicitation capability and answers {@code elicitation/create}. */
        public Builder onElicitation(ClientRequestHandler handler) {
            handlers.put("elicitation/create", Objects.requireNonNull(handler, "onElicitation"));
            return this;
        }

        /**
         * What this client's own refusals of a server's requests become (a question it cannot
         * route, say): the ref the server sees is recorded where this boundary says (a proxy's
         * incident store), so it resolves.
         */
        public Builder boundary(ErrorBoundary boundary) {
            this.boundary = Objects.requireNonNull(boundary, "boundary");
            return this;
        }

        /** Declares the roots capability and answers {@code roots/list}. */
        public Builder onRootsList(ClientRequestHandler handler) {
            handlers.put("roots/list", Objects.requireNonNull(handler, "onRootsList"));
            return this;
        }

        /**
         * Answers {@code method} ({@code sampling/createMessage}, {@code elicitation/create} or
         * {@code roots/list}) without declaring its capability, for a server that asks anyway.
         * Without this such a request is refused with -32601; a proxy uses it to answer in its
         * own client's terms (the gateway ends a 2026-07-28 call with -32021). A handler set with
         * {@code onSampling} and the like for the same method wins.
         */
        public Builder onUndeclared(String method, ClientRequestHandler handler) {
            if (!"sampling/createMessage".equals(method) && !"elicitation/create".equals(method)
                    && !"roots/list".equals(method)) {
                throw new IllegalArgumentException("onUndeclared: method must be sampling/createMessage, "
                        + "elicitation/create or roots/list");
            }
            undeclared.put(method, Objects.requireNonNull(handler, "onUndeclared handler"));
            return this;
        }

        /**
         * Receives the server's notifications (log messages, list changes, resource updates);
         * progress goes to the request it belongs to instead. Runs off the reading thread.
         */
        public Builder onNotification(NotificationHandler handler) {
            this.notifications = Optional.of(Objects.requireNonNull(handler, "onNotification"));
            return this;
        }

        /**
         * Where a CLIENT span and a duration measurement of every request this client sends go (its
         * context in the request's {@code _meta}, the parent being the context current when the call
         * is made): {@link McpTelemetry#ofGlobal()} by default, {@link McpTelemetry#noop()} for none.
         * Attributes of the caller's own ride along with {@link McpTelemetry#with}, e.g.
         * {@code telemetry.with(McpNames.WARDEN_UPSTREAM, "github")}.
         */
        public Builder telemetry(McpTelemetry telemetry) {
            this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
            return this;
        }

        /**
         * Over Streamable HTTP, sends the W3C trace context each request carries in {@code _meta} as
         * headers too, for a caller that puts its own context there (a gateway making its upstream
         * spans itself). Off: only this client's telemetry's own context becomes headers, none with
         * {@link McpTelemetry#noop()}, so a context a caller forwarded never does.
         */
        public Builder traceHeadersFromMeta(boolean fromMeta) {
            this.traceHeadersFromMeta = fromMeta;
            return this;
        }

        /**
         * Where the duration of each session this client opens goes ({@code mcp.client.session.duration}):
         * the {@link #telemetry} unless given; a proxy that makes its request spans itself (and so
         * passes {@link McpTelemetry#noop()} there) still times its sessions here.
         */
        public Builder sessionTelemetry(McpTelemetry sessionTelemetry) {
            this.sessionTelemetry = Optional.of(Objects.requireNonNull(sessionTelemetry, "sessionTelemetry"));
            return this;
        }

        /** How the client waits between reconnection attempts (tests record the waits instead). */
        Builder pause(ClientConfig.Pause pause) {
            this.pause = Objects.requireNonNull(pause, "pause");
            return this;
        }

        /**
         * Connects (with the reconnect policy's attempts) and initializes. The client keeps this
         * builder's settings as they are now: changing the builder later changes no reconnect.
         */
        public McpClient connect(Supplier<Transport> connector) {
            McpClient client = new McpClient(new ClientConfig(info, requestTimeout, reconnect, protocolVersion,
                    handlers, boundary, undeclared, notifications, pause, telemetry, traceHeadersFromMeta,
                    sessionTelemetry.orElse(telemetry)),
                    Objects.requireNonNull(connector, "connector"));
            client.connections.reconnect();
            return client;
        }

        private static String requireText(String value, String what) {
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException(what + " must not be blank");
            }
            return value;
        }
    }
}
