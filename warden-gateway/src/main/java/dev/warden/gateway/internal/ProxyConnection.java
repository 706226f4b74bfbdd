package dev.warden.gateway.internal;

import dev.warden.client.McpClient;
import dev.warden.core.error.AuthorizationFailedException;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.MessageTooLargeException;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.error.RequestTimeoutException;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.session.OutgoingRequest;
import dev.warden.core.session.RequestContext;
import dev.warden.core.session.RequestOptions;
import dev.warden.core.session.Session;
import dev.warden.core.transport.Transport;
import dev.warden.gateway.Upstream;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One client's connection through the gateway to one upstream (what {@code warden wrap} runs): an
 * MCP server towards the client, an MCP client towards the upstream, started when the client
 * initializes so the upstream sees the client's capabilities. Requests, notifications and the
 * upstream's own requests (sampling, elicitation, roots) cross as they are, with their fields
 * intact; failures go through the {@link ErrorPipeline}; cancellation crosses both ways.
 */
public final class ProxyConnection {

    private static final System.Logger LOG = System.getLogger(ProxyConnection.class.getName());
    /** Requests the upstream may make of the client, forwarded only if the client declared them. */
    private static final Set<String> CLIENT_METHODS = Set.of("sampling/createMessage", "elicitation/create",
            "roots/list");

    private final Upstream upstream;
    private final ErrorPipeline pipeline;
    private final Session session;
    private volatile McpClient client;
    /** Tools from the upstream's last list that declare an output schema: their errors carry no structured content. */
    private final Set<String> withOutputSchema = ConcurrentHashMap.newKeySet();

    public ProxyConnection(Transport downstream, Upstream upstream, ErrorPipeline pipeline) {
        this.upstream = upstream;
        this.pipeline = pipeline;
        this.session = Session.builder(downstream)
                .defaultTimeout(upstream.timeout())
                .onRequestInline(Lifecycle.INITIALIZE, this::initialize)
                .onNotification(Lifecycle.INITIALIZED, (method, params) -> clientReady())
                .onRequest("tools/list", this::listTools)
                .onRequest("tools/call", this::callTool)
                .onOtherRequest(this::forward)
                .onOtherNotification(this::notifyUpstream)
                .build();
    }

    public void start() {
        session.start();
    }

    public CompletableFuture<Void> closed() {
        return session.closed();
    }

    public void close() {
        session.close();
        McpClient c = client;
        if (c != null) {
            c.close();
        }
    }

    private JsonNode initialize(RequestContext ctx) throws Exception {
        JsonNode params = ctx.params().orElseGet(Json::object);
        ProtocolVersion version = ProtocolVersion.fromWire(params.path("protocolVersion").asString(""))
                .filter(v -> !v.stateless()).orElse(ProtocolVersion.latestSessionBased());
        JsonNode caps = params.path("capabilities");
        JsonNode info = params.path("clientInfo");
        McpClient.Builder builder = McpClient.builder(info.path("name").asString("warden-gateway"),
                        info.path("version").asString("0"))
                .requestTimeout(upstream.timeout())
                .reconnect(upstream.reconnect())
                .onNotification(this::notifyDownstream);
        // The upstream may ask the client only for what the client can give.
        if (caps.has("sampling")) {
            builder.onSampling(p -> askClient("sampling/createMessage", p));
        }
        if (caps.has("elicitation")) {
            builder.onElicitation(p -> askClient("elicitation/create", p));
        }
        if (caps.has("roots")) {
            builder.onRootsList(p -> askClient("roots/list", p));
        }
        McpClient connected;
        try {
            connected = builder.connect(upstream.connector());
        } catch (RuntimeException e) {
            throw pipeline.rpcError(JsonRpcError.INTERNAL_ERROR, pipeline.local(Lifecycle.INITIALIZE, Optional.empty(),
                    ErrorCode.UPSTREAM_ERROR, "The upstream server could not be started.", e));
        }
        client = connected;
        ObjectNode result = Json.object();
        result.put("protocolVersion", version.wire());
        result.set("capabilities", connected.serverCapabilities());
        result.set("serverInfo", Json.tree(connected.serverInfo()));
        connected.instructions().ifPresent(i -> result.put("instructions",
                pipeline.cleanNotification(Json.mapper().getNodeFactory().stringNode(i)).asString("")));
        return result;
    }

    private ObjectNode askClient(String method, ObjectNode params) throws Exception {
        JsonNode answer = session.request(method, params).get();
        return answer instanceof ObjectNode o ? o : Json.object();
    }

    private McpClient upstream() {
        McpClient c = client;
        if (c == null) {
            throw ProtocolException.invalidRequest("Invalid request: the session has not been initialized");
        }
        return c;
    }

    private JsonNode listTools(RequestContext ctx) throws Exception {
        JsonNode result = send(ctx, Optional.empty());
        withOutputSchema.clear();
        for (JsonNode tool : result.path("tools")) {
            if (tool.path("outputSchema").isObject()) {
                withOutputSchema.add(tool.path("name").asString(""));
            }
        }
        return pipeline.cleanSuccess(result);
    }

    private JsonNode callTool(RequestContext ctx) throws Exception {
        String name = ctx.params().map(p -> p.path("name").asString("")).orElse("");
        boolean structured = !withOutputSchema.contains(name);
        JsonNode result;
        try {
            result = send(ctx, Optional.of(name));
        } catch (PeerErrorException e) {
            return toolError(name, e.error(), structured, ErrorPipeline.inputsOf(ctx.params()));
        } catch (ProtocolException e) {
            throw e;
        } catch (LocalFailure e) {
            return pipeline.toolError(e.outcome(), structured);
        }
        if (!result.path("isError").asBoolean(false)) {
            return pipeline.cleanSuccess(result);
        }
        String text = ErrorPipeline.errorText(result);
        if (unknownTool(text)) {
            throw unknownTool();
        }
        return pipeline.toolError(pipeline.failure("tools/call", Optional.of(name), text, ErrorCode.UPSTREAM_ERROR,
                ErrorPipeline.inputsOf(ctx.params())), structured);
    }

    /**
     * A JSON-RPC error answering a call: an unknown tool or a bad request stays a protocol error
     * (the tool's name is not repeated); anything else is really the tool failing (the ash_ai
     * pattern: -32000 "Tool execution failed" with the detail in {@code data}), so it becomes an
     * {@code isError} result the model can read, with that detail sanitized.
     */
    private JsonNode toolError(String name, JsonRpcError error, boolean structured, Set<String> inputs) {
        if (error.code() == JsonRpcError.INVALID_PARAMS && unknownTool(error.message())) {
            throw unknownTool();
        }
        if (error.code() == JsonRpcError.METHOD_NOT_FOUND) {
            throw new ProtocolException(JsonRpcError.METHOD_NOT_FOUND, "Method not found", ErrorCode.NOT_FOUND);
        }
        if (error.code() == JsonRpcError.INVALID_PARAMS) {
            throw pipeline.rpcError(JsonRpcError.INVALID_PARAMS, pipeline.failure("tools/call", Optional.of(name),
                    detail(error), ErrorCode.VALIDATION_ERROR, inputs));
        }
        return pipeline.toolError(pipeline.failure("tools/call", Optional.of(name), detail(error),
                ErrorCode.UPSTREAM_ERROR, inputs), structured);
    }

    private static String detail(JsonRpcError error) {
        Optional<JsonNode> data = error.data().filter(d -> !d.isNull());
        if (data.isEmpty()) {
            return error.message();
        }
        String extra = data.get().isString() ? data.get().stringValue() : data.get().toString();
        return error.message() + "\n" + extra;
    }

    private static boolean unknownTool(String text) {
        String t = text.length() > 4096 ? text.substring(0, 4096) : text;
        t = t.toLowerCase(java.util.Locale.ROOT);
        return t.contains("unknown tool") || t.contains("tool not found")
                || t.contains("tool ") && t.contains(" not found") && (t.contains("-32602") || t.startsWith("tool "));
    }

    private static ProtocolException unknownTool() {
        // The name is the caller's input: it is not repeated back.
        return new ProtocolException(JsonRpcError.INVALID_PARAMS, "Unknown tool", ErrorCode.NOT_FOUND);
    }

    /** Everything else: forwarded as it is; an error comes back sanitized, with its code kept where allowed. */
    private JsonNode forward(RequestContext ctx) throws Exception {
        try {
            return pipeline.cleanSuccess(send(ctx, Optional.empty()));
        } catch (PeerErrorException e) {
            JsonRpcError error = e.error();
            if (error.code() == JsonRpcError.METHOD_NOT_FOUND) {
                throw new ProtocolException(JsonRpcError.METHOD_NOT_FOUND, "Method not found", ErrorCode.NOT_FOUND);
            }
            ErrorCode fallback = error.code() == JsonRpcError.INVALID_PARAMS ? ErrorCode.VALIDATION_ERROR
                    : ErrorCode.UPSTREAM_ERROR;
            throw pipeline.rpcError(error.code(), pipeline.failure(ctx.method(), Optional.empty(), detail(error),
                    fallback, ErrorPipeline.inputsOf(ctx.params())));
        } catch (LocalFailure e) {
            throw pipeline.rpcError(JsonRpcError.INTERNAL_ERROR, e.outcome());
        }
    }

    /** A failure on the way to the upstream, already recorded: what the client gets instead of an answer. */
    private static final class LocalFailure extends Exception {
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
     * (and keeps the request alive), the client cancelling cancels it upstream.
     */
    private JsonNode send(RequestContext ctx, Optional<String> tool) throws Exception {
        ObjectNode params = ctx.params().filter(ObjectNode.class::isInstance).map(p -> ((ObjectNode) p).deepCopy())
                .orElseGet(Json::object);
        if (params.get("_meta") instanceof ObjectNode meta) {
            meta.remove("progressToken"); // the upstream gets a token of this connection's own
        }
        RequestOptions options = RequestOptions.ofDefaults().withTimeout(upstream.timeout())
                .withResetTimeoutOnProgress(true)
                .withProgress(p -> ctx.progress(p.progress(), p.total(), p.message().map(m ->
                        pipeline.cleanNotification(Json.mapper().getNodeFactory().stringNode(m)).asString(""))));
        OutgoingRequest out;
        try {
            out = upstream().requestAsync(ctx.method(), params, options);
        } catch (ProtocolException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new LocalFailure(unavailable(ctx.method(), tool, e));
        }
        try {
            JsonNode result = out.get();
            afterNotifications();
            return result;
        } catch (InterruptedException e) {
            out.cancel("Cancelled by the client");
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof PeerErrorException peer) {
                throw peer;
            }
            if (cause instanceof MessageTooLargeException) {
                throw new LocalFailure(pipeline.local(ctx.method(), tool, ErrorCode.UPSTREAM_ERROR,
                        "The upstream server's answer is larger than the gateway accepts.", cause));
            }
            if (cause instanceof RequestTimeoutException) {
                throw new LocalFailure(pipeline.local(ctx.method(), tool, ErrorCode.TIMEOUT,
                        "The upstream server did not answer in time.", cause));
            }
            throw new LocalFailure(unavailable(ctx.method(), tool, cause));
        }
    }

    /** What the upstream said before answering (log messages about the call) reaches the client first. */
    private void afterNotifications() throws InterruptedException {
        try {
            upstream().notificationsHandled().get(5, java.util.concurrent.TimeUnit.SECONDS);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            LOG.log(System.Logger.Level.DEBUG, "notifications of upstream {0} still pending", upstream.name());
        }
    }

    private ErrorPipeline.Outcome unavailable(String method, Optional<String> tool, Throwable cause) {
        String message = cause instanceof AuthorizationFailedException
                ? "The gateway could not authorize with the upstream server."
                : "The upstream server is unavailable.";
        return pipeline.local(method, tool, ErrorCode.UPSTREAM_ERROR, message, cause);
    }

    /** Notifications held until the client has said it is initialized (the upstream may talk first). */
    private final java.util.List<Runnable> held = new java.util.ArrayList<>();
    private boolean ready;
    static final int MAX_HELD = 256;

    private void clientReady() {
        java.util.List<Runnable> flush;
        synchronized (held) {
            ready = true;
            flush = java.util.List.copyOf(held);
            held.clear();
        }
        flush.forEach(Runnable::run);
    }

    /** The upstream's notifications reach the client; log and progress text is sanitized first. */
    private void notifyDownstream(String method, Optional<JsonNode> params) {
        if (session.isClosed()) {
            return;
        }
        JsonNode body = "notifications/message".equals(method)
                ? pipeline.cleanNotification(params.orElseGet(Json::object)) : params.orElseGet(Json::object);
        synchronized (held) {
            if (!ready) {
                if (held.size() < MAX_HELD) {
                    held.add(() -> session.notify(method, body));
                }
                return;
            }
        }
        session.notify(method, body);
    }

    /** The client's notifications (roots changed, say) reach the upstream; initialized is the gateway's own. */
    private void notifyUpstream(String method, Optional<JsonNode> params) {
        McpClient c = client;
        if (c != null && !CLIENT_METHODS.contains(method)) {
            try {
                c.notify(method, params.filter(ObjectNode.class::isInstance).map(ObjectNode.class::cast)
                        .orElseGet(Json::object));
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "a notification to upstream {0} was dropped", upstream.name());
            }
        }
    }


}
