package dev.warden.client;

import dev.warden.client.http.HttpAuthorization;
import dev.warden.client.http.StreamableHttpTransport;
import dev.warden.core.error.AuthorizationFailedException;
import dev.warden.core.error.ConnectionClosedException;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.error.IncompatiblePeerException;
import dev.warden.core.error.RequestCancelledException;
import dev.warden.core.error.RequestTimeoutException;
import dev.warden.core.error.Violation;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.mcp.Content;
import dev.warden.core.mcp.Implementation;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.ParamHeaders;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.mcp.Tools;
import dev.warden.core.session.NotificationHandler;
import dev.warden.core.session.OutgoingRequest;
import dev.warden.core.session.RequestOptions;
import dev.warden.core.session.Session;
import dev.warden.core.transport.ProcessStartException;
import dev.warden.core.transport.ProcessTransport;
import dev.warden.core.transport.Transport;
import dev.warden.schema.JsonSchemaValidator;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import java.util.stream.Collectors;
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
 */
public final class McpClient implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(McpClient.class.getName());

    private final Builder config;
    private final Supplier<Transport> connector;
    private final Object connecting = new Object();
    private final Map<String, Optional<JsonSchemaValidator>> outputSchemas = new ConcurrentHashMap<>();
    private final java.util.Set<String> rejectedTools = ConcurrentHashMap.newKeySet();
    private volatile Connection connection;
    private volatile boolean closed;

    /**
     * One live connection with what initialize (or server/discover) told about the server. In a
     * stateless version there is no session state: {@link #stamp} puts the version and the
     * client's capabilities in every request's {@code _meta}.
     */
    private record Connection(Session session, Transport transport, ProtocolVersion version, Implementation server,
                              ObjectNode capabilities, Optional<String> instructions, ObjectNode clientMeta) {

        ObjectNode stamp(ObjectNode params) {
            if (!version.stateless()) {
                return params;
            }
            ObjectNode copy = params == null ? Json.object() : params.deepCopy();
            JsonNode existing = copy.get("_meta");
            ObjectNode meta = existing instanceof ObjectNode m ? m : copy.putObject("_meta");
            // A caller may speak for a client of its own (a proxy): its capabilities and log level stand.
            for (Map.Entry<String, JsonNode> entry : clientMeta.properties()) {
                if (!meta.has(entry.getKey()) || ProtocolVersion.META_VERSION.equals(entry.getKey())) {
                    meta.set(entry.getKey(), entry.getValue());
                }
            }
            return copy;
        }
    }

    private McpClient(Builder config, Supplier<Transport> connector) {
        this.config = config;
        this.connector = connector;
    }

    public static Builder builder(String name, String version) {
        return new Builder(name, version);
    }

    /** Launches {@code command} and speaks stdio to it; its stderr goes to the log, never parsed. */
    public static Supplier<Transport> stdio(List<String> command) {
        List<String> copy = List.copyOf(command);
        return () -> ProcessTransport.launch(copy, Map.of(), Optional.empty(),
                line -> LOG.log(System.Logger.Level.DEBUG, "server stderr: {0}", line));
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
        Connection c = connection;
        return c != null && !c.session().isClosed();
    }

    public ProtocolVersion protocolVersion() {
        return live().version();
    }

    public Implementation serverInfo() {
        return live().server();
    }

    public ObjectNode serverCapabilities() {
        return live().capabilities().deepCopy();
    }

    public Optional<String> instructions() {
        return live().instructions();
    }

    /** Every tool, all pages; their output schemas are kept to check structured results. */
    public List<Tools.Tool> listTools() {
        requireCapability("tools");
        List<Tools.Tool> tools = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        do {
            ObjectNode params = Json.object();
            cursor.ifPresent(c -> params.put("cursor", c));
            JsonNode page = call("tools/list", params, RequestOptions.ofDefaults().withTimeout(config.requestTimeout));
            Tools.ListResult result = parse(page, Tools.ListResult.class, "tools/list");
            tools.addAll(result.tools());
            cursor = result.nextCursor();
        } while (cursor.isPresent() && tools.size() < 100_000);
        if (live().transport() instanceof StreamableHttpTransport http) {
            tools = withValidHeaders(tools, http);
        }
        for (Tools.Tool tool : tools) {
            outputSchemas.put(tool.name(), tool.outputSchema().map(JsonSchemaValidator::compile));
        }
        return tools;
    }

    /**
     * Over HTTP a tool whose {@code x-mcp-header} annotations break the spec's rules is left out
     * (and calling it refused), so one bad definition does not block the others; the valid ones'
     * annotations go to the transport, which mirrors those arguments into headers.
     */
    private List<Tools.Tool> withValidHeaders(List<Tools.Tool> tools, StreamableHttpTransport http) {
        List<Tools.Tool> kept = new ArrayList<>();
        Map<String, ParamHeaders> annotated = new java.util.HashMap<>();
        for (Tools.Tool tool : tools) {
            try {
                ParamHeaders headers = ParamHeaders.of(tool.inputSchema());
                if (!headers.isEmpty()) {
                    annotated.put(tool.name(), headers);
                }
                rejectedTools.remove(tool.name());
                kept.add(tool);
            } catch (ParamHeaders.InvalidException e) {
                rejectedTools.add(tool.name());
                LOG.log(System.Logger.Level.WARNING, "left out tool {0}: {1}", printable(tool.name()), e.getMessage());
            }
        }
        http.paramHeaders(annotated);
        return kept;
    }

    /** A server-chosen name as a log may show it: printable ASCII, at most 80 characters. */
    private static String printable(String name) {
        StringBuilder b = new StringBuilder();
        name.codePoints().limit(80).forEach(c -> b.append(c >= 0x20 && c < 0x7F ? (char) c : '?'));
        return b.toString();
    }

    public ToolCallResult callTool(String name, ObjectNode arguments) {
        return callTool(name, arguments, CallOptions.ofDefaults().withTimeout(config.requestTimeout));
    }

    /**
     * Calls a tool and waits. An HTTP server that lost the session gets a new one and the call is
     * sent once more (the first never reached a handler: the server had no session for it).
     */
    public ToolCallResult callTool(String name, ObjectNode arguments, CallOptions options) {
        try {
            return join(callToolAsync(name, arguments, options));
        } catch (ConnectionClosedException e) {
            if (!e.sessionExpired() || closed) {
                throw e;
            }
            reconnect();
            return join(callToolAsync(name, arguments, options));
        }
    }

    /**
     * Calls a tool without waiting. Cancelling the future ({@code cancel(true)}) tells the server
     * ({@code notifications/cancelled}) and completes it with {@link java.util.concurrent.CancellationException}.
     */
    public CompletableFuture<ToolCallResult> callToolAsync(String name, ObjectNode arguments, CallOptions options) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(options, "options");
        requireCapability("tools");
        if (rejectedTools.contains(name)) {
            throw new IncompatiblePeerException(
                    "The server's definition of this tool breaks the x-mcp-header rules; it is not called");
        }
        if (!outputSchemas.containsKey(name)) {
            // Learn the tool's output schema before the call: the check runs when the answer arrives,
            // on the thread that reads the connection, which must not wait for another answer.
            listTools();
        }
        java.util.concurrent.atomic.AtomicReference<OutgoingRequest> current = new java.util.concurrent.atomic.AtomicReference<>();
        CompletableFuture<ToolCallResult> result = new CompletableFuture<>() {
            @Override
            public boolean cancel(boolean mayInterruptIfRunning) {
                boolean cancelled = super.cancel(mayInterruptIfRunning);
                OutgoingRequest round = current.get();
                if (round != null) {
                    round.cancel("Cancelled by the caller");
                }
                return cancelled;
            }
        };
        round(name, arguments, options, Json.object(), Optional.empty(), 1, current, result);
        return result;
    }

    /** Rounds of a multi round-trip request (2026-07-28) before the tool's answer. */
    static final int MAX_INPUT_ROUNDS = 16;

    /**
     * One round of a tool call. An input-required answer (2026-07-28) is met with this client's
     * handlers (on a virtual thread: a handler may wait for a person) and the call is sent again
     * with the answers and the server's requestState, as a new request.
     */
    private void round(String name, ObjectNode arguments, CallOptions options, ObjectNode inputResponses,
                       Optional<String> requestState, int round, java.util.concurrent.atomic.AtomicReference<OutgoingRequest> current,
                       CompletableFuture<ToolCallResult> result) {
        if (result.isDone()) {
            return;
        }
        ObjectNode params = Json.object();
        params.put("name", name);
        params.set("arguments", arguments == null ? Json.object() : arguments);
        if (!inputResponses.isEmpty()) {
            params.set("inputResponses", inputResponses);
        }
        requestState.ifPresent(state -> params.put("requestState", state));
        Connection c = live();
        OutgoingRequest request = c.session().request("tools/call", c.stamp(params), options.toRequestOptions());
        current.set(request);
        request.whenComplete((value, error) -> {
            if (error != null) {
                result.completeExceptionally(error);
                return;
            }
            if ("input_required".equals(value.path("resultType").asString(""))) {
                if (round >= MAX_INPUT_ROUNDS) {
                    result.completeExceptionally(new IncompatiblePeerException(
                            "The server asked for input more than " + MAX_INPUT_ROUNDS + " times"));
                    return;
                }
                Thread.ofVirtual().name("warden-client-input").start(() -> {
                    try {
                        ObjectNode answers = answer(value.path("inputRequests"));
                        JsonNode state = value.get("requestState");
                        round(name, arguments, options, answers,
                                state != null && state.isString() ? Optional.of(state.stringValue()) : Optional.empty(),
                                round + 1, current, result);
                    } catch (Exception e) {
                        result.completeExceptionally(e);
                    }
                });
                return;
            }
            try {
                result.complete(toResult(name, value));
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
    }

    /** Answers a server's input requests with this client's handlers; one it has no handler for is refused locally. */
    private ObjectNode answer(JsonNode inputRequests) throws Exception {
        ObjectNode answers = Json.object();
        if (!(inputRequests instanceof ObjectNode requests)) {
            throw new IncompatiblePeerException("The server asked for input without saying what");
        }
        for (Map.Entry<String, JsonNode> entry : requests.properties()) {
            String method = entry.getValue().path("method").asString("");
            ClientRequestHandler handler = config.handlers.getOrDefault(method, config.undeclared.get(method));
            if (handler == null) {
                throw new IncompatiblePeerException("The server asked for input this client does not provide");
            }
            JsonNode p = entry.getValue().get("params");
            ObjectNode params = p instanceof ObjectNode o ? o : Json.object();
            ObjectNode answer = handler.handle(params);
            answers.set(entry.getKey(), "elicitation/create".equals(method)
                    ? Elicitation.withDefaults(params, answer) : answer);
        }
        return answers;
    }

    public void ping() {
        call("ping", Json.object(), RequestOptions.ofDefaults().withTimeout(config.requestTimeout));
    }

    /**
     * Any request without waiting, with its own options (a progress listener, timeouts): what a
     * proxy forwards. Cancelling the returned request tells the server.
     */
    public OutgoingRequest requestAsync(String method, ObjectNode params, RequestOptions options) {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(options, "options");
        Connection c = live();
        OutgoingRequest request = c.session().request(method, c.stamp(params), options);
        if ("tools/list".equals(method) && c.transport() instanceof StreamableHttpTransport http) {
            // A proxy lists for its own clients: the annotations still have to reach the transport,
            // or its calls would lack the Mcp-Param-* headers the server checks.
            request.thenAccept(page -> http.addParamHeaders(annotations(page)));
        }
        return request;
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
        Connection c = connection;
        if (c == null || c.session().isClosed() || c.version().stateless()) {
            return Optional.empty();
        }
        OutgoingRequest request = c.session().request(method, c.stamp(params), options);
        if ("tools/list".equals(method) && c.transport() instanceof StreamableHttpTransport http) {
            request.thenAccept(page -> http.addParamHeaders(annotations(page)));
        }
        return Optional.of(request);
    }

    /** The valid {@code x-mcp-header} annotations of one {@code tools/list} page, by tool name. */
    private static Map<String, ParamHeaders> annotations(JsonNode page) {
        Map<String, ParamHeaders> found = new java.util.HashMap<>();
        for (JsonNode tool : page.path("tools")) {
            try {
                ParamHeaders headers = ParamHeaders.of(tool.path("inputSchema"));
                if (!headers.isEmpty() && tool.path("name").isString()) {
                    found.put(tool.get("name").stringValue(), headers);
                }
            } catch (ParamHeaders.InvalidException e) {
                LOG.log(System.Logger.Level.DEBUG, "a listed tool breaks the x-mcp-header rules");
            }
        }
        return found;
    }

    /** Completes once the server's notifications received so far have reached the {@code onNotification} handler. */
    public CompletableFuture<Void> notificationsHandled() {
        Connection c = connection;
        return c == null ? CompletableFuture.completedFuture(null) : c.session().notificationsHandled();
    }

    /** A notification to the server (what a proxy forwards from its own client). */
    public void notify(String method, ObjectNode params) {
        Objects.requireNonNull(method, "method");
        Connection c = live();
        c.session().notify(method, c.stamp(params));
    }

    /** Any request, for methods this class has no method for; the result as received. */
    public JsonNode request(String method, ObjectNode params) {
        return call(method, params, RequestOptions.ofDefaults().withTimeout(config.requestTimeout));
    }

    @Override
    public void close() {
        closed = true;
        Connection c = connection;
        if (c != null) {
            c.session().close();
            c.transport().close();
        }
    }

    // ---- internals ----------------------------------------------------------------------------

    private ToolCallResult toResult(String tool, JsonNode value) {
        if (!(value instanceof ObjectNode raw)) {
            throw new IncompatiblePeerException("The tools/call result is not an object");
        }
        boolean isError = raw.path("isError").asBoolean(false);
        List<Content> content = new ArrayList<>();
        JsonNode items = raw.get("content");
        if (items != null && items.isArray()) {
            for (JsonNode item : items) {
                try {
                    content.add(Json.read(item, Content.class));
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.DEBUG, "skipped a content block of an unknown shape");
                }
            }
        }
        Optional<JsonNode> structured = Optional.ofNullable(raw.get("structuredContent"));
        if (!isError) {
            // Not for isError results: a failure need not have the success shape.
            Optional<JsonSchemaValidator> schema = outputSchemas.getOrDefault(tool, Optional.empty());
            if (schema.isPresent()) {
                if (structured.isEmpty()) {
                    throw new IncompatiblePeerException("The tool declares an output schema but returned no "
                            + "structured content");
                }
                List<Violation> violations = schema.get().validate(structured.get());
                if (!violations.isEmpty()) {
                    throw new IncompatiblePeerException("The tool's structured content breaks its output schema: "
                            + violations.stream().map(Violation::line).collect(Collectors.joining("; ")));
                }
            }
        }
        return new ToolCallResult(content, structured, isError, raw);
    }

    private JsonNode call(String method, ObjectNode params, RequestOptions options) {
        try {
            Connection c = live();
            return join(c.session().request(method, c.stamp(params), options));
        } catch (ConnectionClosedException e) {
            if (!e.sessionExpired() || closed) {
                throw e;
            }
            reconnect();
            Connection c = live();
            return join(c.session().request(method, c.stamp(params), options));
        }
    }

    private void requireCapability(String capability) {
        if (!live().capabilities().has(capability)) {
            throw new IncompatiblePeerException("The server does not offer " + capability);
        }
    }

    private static <T> T join(CompletableFuture<T> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new RequestCancelledException("Interrupted while waiting for the server");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    private <T> T parse(JsonNode node, Class<T> type, String what) {
        try {
            return Json.read(node, type);
        } catch (RuntimeException e) {
            throw new IncompatiblePeerException("The server's " + what + " result is malformed");
        }
    }

    /** The live connection; a dead one is replaced first, under the reconnect policy. */
    private Connection live() {
        Connection c = connection;
        if (c != null && !c.session().isClosed()) {
            return c;
        }
        return reconnect();
    }

    private Connection reconnect() {
        synchronized (connecting) {
            if (closed) {
                throw new ConnectionClosedException("The client is closed");
            }
            Connection old = connection;
            if (old != null) {
                old.session().close();
                old.transport().close();
            }
            connection = null;
            int attempts = Math.max(1, config.reconnect.maxAttempts() + (old == null ? 1 : 0));
            RuntimeException last = null;
            for (int attempt = 1; attempt <= attempts; attempt++) {
                if (attempt > 1) {
                    sleep(config.reconnect.delay(attempt - 1));
                }
                try {
                    connection = open();
                    return connection;
                } catch (IncompatiblePeerException | AuthorizationFailedException e) {
                    throw e; // the server will not change its mind on retry (nor the user theirs)
                } catch (ServerDidNotStart e) {
                    // A server that never ran (no such program; it exited before answering: a wrong
                    // argument, a missing directory or package) fails the same way on every try: the
                    // caller hears why at once, not after the backoff. One that ran before and then
                    // crashed is tried again: it may well come back.
                    ConnectionClosedException failure = new ConnectionClosedException(e.getMessage(), e.getCause(),
                            false);
                    if (old == null) {
                        throw failure;
                    }
                    last = failure;
                    LOG.log(System.Logger.Level.DEBUG, "connecting failed (attempt {0} of {1})", attempt, attempts);
                } catch (RuntimeException e) {
                    last = e;
                    LOG.log(System.Logger.Level.DEBUG, "connecting failed (attempt {0} of {1})", attempt, attempts);
                }
            }
            throw last instanceof ConnectionClosedException closedException ? closedException
                    : new ConnectionClosedException("Could not connect to the server", last, false);
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RequestCancelledException("Interrupted while reconnecting");
        }
    }

    /** How long a server whose output ended is given to exit, to tell an exit from a stream that closed. */
    private static final Duration EXIT_WAIT = Duration.ofMillis(500);

    /** The server process could not be started, or exited before it answered (see {@link #reconnect()}). */
    private static final class ServerDidNotStart extends RuntimeException {
        ServerDidNotStart(String message, Throwable cause) {
            super(message, cause, false, false);
        }
    }

    private Connection open() {
        Transport transport;
        try {
            transport = connector.get();
        } catch (ProcessStartException e) {
            throw new ServerDidNotStart("The server could not be started (" + e.getMessage() + ")", e);
        }
        Session.Builder builder = Session.builder(transport).defaultTimeout(config.requestTimeout)
                .boundary(config.boundary);
        config.notifications.ifPresent(builder::onOtherNotification);
        config.handlers.forEach((method, handler) -> builder.onRequest(method, ctx -> {
            JsonNode params = ctx.params().orElseGet(Json::object);
            ObjectNode request = params instanceof ObjectNode o ? o : Json.object();
            ObjectNode result = handler.handle(request);
            return "elicitation/create".equals(method) ? Elicitation.withDefaults(request, result) : result;
        }));
        config.undeclared.forEach((method, handler) -> {
            if (!config.handlers.containsKey(method)) {
                builder.onRequest(method, ctx -> handler.handle(ctx.params().orElseGet(Json::object)
                        instanceof ObjectNode o ? o : Json.object()));
            }
        });
        Session session = builder.build();
        session.start();
        try {
            ObjectNode capabilities = Json.object();
            config.handlers.keySet().forEach(method -> Lifecycle.capabilityFor(method).ifPresent(capabilities::putObject));
            if (config.protocolVersion.stateless()) {
                Optional<Connection> stateless = discover(session, transport, capabilities, config.protocolVersion);
                if (stateless.isPresent()) {
                    return stateless.get();
                }
            }
            ProtocolVersion asked = config.protocolVersion.stateless() ? ProtocolVersion.latestSessionBased()
                    : config.protocolVersion;
            JsonNode result;
            try {
                result = join(session.request(Lifecycle.INITIALIZE, Json.tree(new Lifecycle.InitializeParams(
                        asked.wire(), capabilities, config.info)),
                        RequestOptions.ofDefaults().withTimeout(config.requestTimeout)));
            } catch (PeerErrorException e) {
                // A server that speaks only stateless versions refuses initialize with -32022 and
                // its list: one this client speaks too is used instead of giving up.
                Optional<ProtocolVersion> stateless = statelessOffered(e);
                if (stateless.isPresent()) {
                    Optional<Connection> c = discover(session, transport, capabilities, stateless.get());
                    if (c.isPresent()) {
                        return c.get();
                    }
                }
                throw e;
            }
            String wire = result.path("protocolVersion").asString("");
            ProtocolVersion version = ProtocolVersion.fromWire(wire).orElseThrow(() -> new IncompatiblePeerException(
                    "The server chose a protocol version this client does not speak"));
            Implementation server = parse(result.path("serverInfo"), Implementation.class, "initialize");
            JsonNode caps = result.get("capabilities");
            if (transport instanceof StreamableHttpTransport http) {
                http.protocolVersion(version.wire());
            }
            session.allowBatches(version.allowsBatches());
            session.notify(Lifecycle.INITIALIZED, Json.object());
            outputSchemas.clear();
            return new Connection(session, transport, version, server,
                    caps instanceof ObjectNode o ? o : Json.object(),
                    result.path("instructions").isString() ? Optional.of(result.get("instructions").stringValue())
                            : Optional.empty(), Json.object());
        } catch (RuntimeException e) {
            // Asked before closing, which would end the process anyway.
            Optional<Integer> exited = e instanceof ConnectionClosedException && transport instanceof ProcessTransport p
                    ? p.exitCode(EXIT_WAIT) : Optional.empty();
            session.close();
            transport.close();
            if (exited.isPresent()) {
                throw new ServerDidNotStart("The server process exited with code " + exited.get()
                        + " before it answered", e);
            }
            throw e;
        }
    }

    /**
     * The stateless probe: {@code server/discover} in the newest version. A server that lists that
     * version is used statelessly; any other answer (an error, an HTTP refusal, an older version
     * list) means initialize, on a fresh connection for HTTP (a refused POST leaves nothing behind).
     */
    private Optional<Connection> discover(Session session, Transport transport, ObjectNode capabilities,
                                          ProtocolVersion wanted) {
        ObjectNode clientMeta = Json.object();
        clientMeta.put(ProtocolVersion.META_VERSION, wanted.wire());
        clientMeta.set(ProtocolVersion.META_CLIENT_CAPABILITIES, capabilities);
        clientMeta.set(ProtocolVersion.META_CLIENT_INFO, Json.tree(config.info));
        ObjectNode params = Json.object();
        params.set("_meta", clientMeta.deepCopy());
        JsonNode result = null;
        for (int attempt = 1; result == null; attempt++) {
            try {
                result = join(session.request("server/discover", params,
                        RequestOptions.ofDefaults().withTimeout(config.requestTimeout)));
            } catch (AuthorizationFailedException e) {
                throw e;
            } catch (PeerErrorException e) {
                // -32022 lists what the server speaks: if that includes this version (a server that
                // refused the first request for its own reasons), ask once more; else initialize.
                boolean listed = e.error().code() == JsonRpcError.UNSUPPORTED_PROTOCOL_VERSION
                        && e.error().data().map(d -> d.path("supported")).stream().flatMap(JsonNode::valueStream)
                                .anyMatch(v -> v.asString("").equals(wanted.wire()));
                if (!listed || attempt > 1) {
                    LOG.log(System.Logger.Level.DEBUG, "server/discover refused; initializing instead");
                    return Optional.empty();
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "server/discover failed; initializing instead");
                return Optional.empty();
            }
        }
        boolean speaks = result.path("supportedVersions").valueStream()
                .anyMatch(v -> v.asString("").equals(wanted.wire()));
        if (!speaks) {
            return Optional.empty();
        }
        JsonNode serverInfo = result.path("_meta").path(ProtocolVersion.META_SERVER_INFO);
        Implementation server = serverInfo.isObject() ? parse(serverInfo, Implementation.class, "server/discover")
                : new Implementation("unknown", "unknown", Optional.empty());
        JsonNode caps = result.get("capabilities");
        if (transport instanceof StreamableHttpTransport http) {
            http.protocolVersion(wanted.wire());
        }
        outputSchemas.clear();
        return Optional.of(new Connection(session, transport, wanted, server,
                caps instanceof ObjectNode o ? o : Json.object(),
                result.path("instructions").isString() ? Optional.of(result.get("instructions").stringValue())
                        : Optional.empty(), clientMeta));
    }

    /** The stateless version a -32022 refusal of initialize lists that this client speaks, newest first. */
    private static Optional<ProtocolVersion> statelessOffered(PeerErrorException e) {
        if (e.error().code() != JsonRpcError.UNSUPPORTED_PROTOCOL_VERSION) {
            return Optional.empty();
        }
        return e.error().data().map(d -> d.path("supported")).stream().flatMap(JsonNode::valueStream)
                .map(v -> ProtocolVersion.fromWire(v.asString(""))).flatMap(Optional::stream)
                .filter(ProtocolVersion::stateless).max(java.util.Comparator.naturalOrder());
    }

    public static final class Builder {
        private final Implementation info;
        private Duration requestTimeout = RequestOptions.DEFAULT_TIMEOUT;
        private ReconnectPolicy reconnect = ReconnectPolicy.ofDefaults();
        private ProtocolVersion protocolVersion = ProtocolVersion.latest();
        private final Map<String, ClientRequestHandler> handlers = new java.util.LinkedHashMap<>();
        private dev.warden.core.incident.ErrorBoundary boundary = dev.warden.core.incident.ErrorBoundary.ofDefaults();
        private final Map<String, ClientRequestHandler> undeclared = new java.util.LinkedHashMap<>();
        private Optional<NotificationHandler> notifications = Optional.empty();

        private Builder(String name, String version) {
            this.info = new Implementation(requireText(name, "name"), requireText(version, "version"),
                    Optional.empty());
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
        public Builder boundary(dev.warden.core.incident.ErrorBoundary boundary) {
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

        /** Connects (with the reconnect policy's attempts) and initializes. */
        public McpClient connect(Supplier<Transport> connector) {
            McpClient client = new McpClient(this, Objects.requireNonNull(connector, "connector"));
            client.reconnect();
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
