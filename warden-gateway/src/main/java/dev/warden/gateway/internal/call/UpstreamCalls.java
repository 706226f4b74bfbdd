package dev.warden.gateway.internal.call;

import dev.warden.client.McpClient;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.session.OutgoingRequest;
import dev.warden.core.session.RequestContext;
import dev.warden.core.session.RequestOptions;
import dev.warden.gateway.internal.access.CallerAccess;
import dev.warden.gateway.internal.client.CallsInFlight;
import dev.warden.gateway.internal.client.ClientProfile;
import dev.warden.gateway.internal.client.StatelessRules;
import dev.warden.gateway.internal.failure.ErrorPipeline;
import dev.warden.gateway.internal.limits.Guard;
import dev.warden.gateway.internal.parked.ParkedCall;
import dev.warden.gateway.internal.tracing.ServerSpans;
import dev.warden.gateway.internal.tracing.UpstreamSpan;
import dev.warden.gateway.internal.upstream.Asker;
import dev.warden.gateway.internal.upstream.UpstreamLink;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One client's requests to its upstreams: admitted by the limits (its rate, the upstream's
 * concurrency and breaker), sent on the connection that declared what the client declares, and
 * waited for within the timeout. Progress from the upstream reaches the client (and keeps the
 * request alive), the client cancelling cancels it upstream, and what the upstream said before
 * answering reaches the client before the answer.
 */
public final class UpstreamCalls {

    private static final System.Logger LOG = System.getLogger(UpstreamCalls.class.getName());

    private final ClientProfile profile;
    private final Services services;
    private final CallsInFlight inFlight;
    private final ParkedRounds parked;
    private final UpstreamInputRounds inputRounds;
    /** The client connection, as the one an upstream's questions during its calls are put to. */
    private final Asker asker;
    /** The spans of this client's requests, whose children the upstream calls are. */
    private final ServerSpans spans;

    public UpstreamCalls(ClientProfile profile, Services services, CallsInFlight inFlight, UpstreamInputRounds inputRounds,
            Asker asker, ServerSpans spans) {
        this.spans = spans;
        this.profile = profile;
        this.services = services;
        this.inFlight = inFlight;
        this.inputRounds = inputRounds;
        this.asker = asker;
        this.parked = new ParkedRounds(profile, services, spans);
    }

    /** One request to one upstream; an error comes back sanitized, with its JSON-RPC code kept where allowed. */
    public JsonNode forward(UpstreamLink link, RequestContext ctx, ObjectNode params) throws Exception {
        return forward(link, ctx, params, UnaryOperator.identity());
    }

    /**
     * {@link #forward}, with {@code asListed} applied to the result before it is cleaned: a
     * listing is compared with the upstream's pins as the upstream gave it, which is what a pin hashes.
     */
    public JsonNode forward(UpstreamLink link, RequestContext ctx, ObjectNode params, UnaryOperator<JsonNode> asListed)
            throws Exception {
        ErrorPipeline pipeline = profile.pipeline(link);
        return pipeline.cleanSuccess(asListed.apply(resultOf(pipeline, ctx,
                send(link, ctx, params, link.spec().timeout(), Optional.empty()), Optional.empty())));
    }

    /**
     * {@link #forward}, for a request that names a prompt or resource: an upstream answer that only
     * says it has no such item ({@code -32602} or {@code -32002} saying "unknown" or "not found")
     * becomes the gateway's own {@code unknown}, so a missing item and one the access rules hide
     * are answered alike, whatever the upstream's words. Without access rules, as {@link #forward}.
     */
    public JsonNode forwardNamed(UpstreamLink link, RequestContext ctx, ObjectNode params, CallerAccess access,
            Supplier<ProtocolException> unknown) throws Exception {
        if (!access.ruled()) {
            return forward(link, ctx, params);
        }
        ErrorPipeline pipeline = profile.pipeline(link);
        return pipeline.cleanSuccess(resultOf(pipeline, ctx,
                send(link, ctx, params, link.spec().timeout(), Optional.empty()), Optional.of(unknown)));
    }

    /**
     * A reply as a request that is not a tool call ends: its result (as the upstream gave it), else
     * the error the client gets, the upstream's sanitized or the recorded failure's. With {@code
     * unknown}, an upstream error that only says it has no such item ({@link #saysNotFound}) is that.
     */
    public static JsonNode resultOf(ErrorPipeline pipeline, RequestContext ctx, UpstreamReply reply,
            Optional<Supplier<ProtocolException>> unknown) {
        return switch (reply) {
            case UpstreamReply.Answered(JsonNode result) -> result;
            case UpstreamReply.ErrorAnswer(JsonRpcError error) when unknown.isPresent() && saysNotFound(error) ->
                    throw unknown.get().get();
            case UpstreamReply.ErrorAnswer(JsonRpcError error) -> throw UpstreamFailures.forwarded(pipeline, ctx, error);
            case UpstreamReply.Recorded(ErrorPipeline.Outcome outcome) ->
                    throw pipeline.rpcError(JsonRpcError.INTERNAL_ERROR, outcome);
        };
    }

    /** Whether an upstream's error only says it has no such item (an unknown prompt, resource or task). */
    static boolean saysNotFound(JsonRpcError error) {
        String m = error.message().length() > 256 ? error.message().substring(0, 256) : error.message();
        String t = m.toLowerCase(java.util.Locale.ROOT);
        return (error.code() == JsonRpcError.INVALID_PARAMS || error.code() == JsonRpcError.MCP_RESOURCE_NOT_FOUND)
                && (t.contains("unknown") || t.contains("not found"));
    }

    /** {@link #send(UpstreamLink, RequestContext, ObjectNode, Duration, Optional, Consumer)}, judging no tool. */
    public UpstreamReply send(UpstreamLink link, RequestContext ctx, ObjectNode params, Duration timeout, Optional<String> tool)
            throws Exception {
        return send(link, ctx, params, timeout, tool, permit -> permit.judged(Guard.Verdict.CALLERS_FAULT));
    }

    /**
     * Sends the client's request upstream and waits, handing the call's permit to {@code admitted}
     * once admitted, so a tool call's caller can say how the tool fared once it has read the
     * answer. A failure is a value ({@link UpstreamReply.Failure}); what is thrown is the client's
     * own end of the call (interrupted, a round it cannot go on with).
     */
    public UpstreamReply send(UpstreamLink link, RequestContext ctx, ObjectNode params, Duration timeout, Optional<String> tool,
            Consumer<Guard.Permit> admitted) throws Exception {
        return send(link, ctx, params, timeout, tool, admitted, Optional.empty());
    }

    /**
     * {@link #send(UpstreamLink, RequestContext, ObjectNode, Duration, Optional)} on one given
     * connection of the upstream's (the one a task was created on, the only one that knows it).
     */
    public UpstreamReply sendOn(McpClient session, UpstreamLink link, RequestContext ctx, ObjectNode params, Duration timeout)
            throws Exception {
        return send(link, ctx, params, timeout, Optional.empty(), permit -> permit.judged(Guard.Verdict.CALLERS_FAULT),
                Optional.of(session));
    }

    /** The connection this client's requests to {@code link} go on now (connecting first if need be). */
    McpClient connection(UpstreamLink link, RequestContext ctx) {
        return profile.stateless() && StatelessRules.stateless(ctx)
                ? link.clientForStateless(profile.capabilities())
                : link.client(profile.upstreamCapabilities());
    }

    private UpstreamReply send(UpstreamLink link, RequestContext ctx, ObjectNode params, Duration timeout,
            Optional<String> tool, Consumer<Guard.Permit> admitted, Optional<McpClient> on) throws Exception {
        spans.upstream(ctx, link.name());
        if (StatelessRules.stateless(ctx) && params.path("requestState").asString("").startsWith(ParkedCall.PREFIX)) {
            // A later round of a parked call: its permit was handed out (and the tool judged) in the first.
            return parked.resume(link, ctx, params, tool);
        }
        RequestOptions options = options(link, ctx, timeout);
        Optional<ErrorPipeline.Outcome> refused = refusal(link, ctx, tool);
        if (refused.isPresent()) {
            return new UpstreamReply.Recorded(refused.get());
        }
        Guard.Permit permit;
        try {
            permit = link.guard().admit(tool, profile.shareKey());
        } catch (Guard.RefusedException e) {
            return new UpstreamReply.Recorded(profile.pipeline(link).refused(ctx.method(), tool, e.refusal()));
        }
        admitted.accept(permit);
        McpClient client;
        try {
            client = on.isPresent() ? on.get() : connection(link, ctx);
        } catch (RuntimeException e) {
            permit.unanswered(e);
            return new UpstreamReply.Recorded(UpstreamFailures.unavailable(profile.pipeline(link), ctx.method(), tool, e));
        }
        boolean upstreamStateless = client.protocolVersion().stateless();
        ObjectNode sent = upstreamStateless ? profile.withEnvelope(params) : params;
        if (StatelessRules.stateless(ctx) && !upstreamStateless) {
            // A session-based upstream may ask this client something mid-call; a stateless client
            // cannot be asked then, so the call is run as one that can be parked between rounds.
            return parked.start(link, ctx, client, sent, options, permit, tool);
        }
        return exchange(link, ctx, client, sent, options, permit, tool);
    }

    /** Progress crosses to the client (its message sanitized) and keeps the request alive. */
    static RequestOptions options(UpstreamLink link, RequestContext ctx, Duration timeout) {
        ErrorPipeline pipeline = link.pipeline();
        return RequestOptions.ofDefaults().withTimeout(timeout)
                .withResetTimeoutOnProgress(true)
                .withProgress(p -> ctx.progress(p.progress(), p.total(), p.message().map(m ->
                        pipeline.cleanNotification(Json.mapper().getNodeFactory().stringNode(m)).asString(""))));
    }

    /**
     * The client's rate, spent by a request of any other method that reaches an upstream (a
     * listing, a read, a prompt, a completion, a subscription, a level, a task): once per request,
     * however many upstreams and pages it reaches, before the first is asked. A tool call spends it
     * in {@link #admit}, once its tool is known. Refused as the other limits refuse a request that
     * is not a tool call: a JSON-RPC error, -32603, with Warden's code, the wait and the ref in
     * {@code data}, recorded under {@code link} (the upstream asked, or the first of a listing's).
     */
    public void spendRate(UpstreamLink link, RequestContext ctx) {
        Optional<Guard.Refusal> refused = rateRefusal();
        if (refused.isPresent()) {
            ErrorPipeline pipeline = profile.pipeline(link);
            throw pipeline.rpcError(JsonRpcError.INTERNAL_ERROR,
                    pipeline.refused(ctx.method(), Optional.empty(), refused.get()));
        }
    }

    /** One taken from this client's rate: empty if it may go on, else why not and when to come back. */
    private Optional<Guard.Refusal> rateRefusal() {
        return profile.refusedByRate().map(wait -> new Guard.Refusal(ErrorCode.RATE_LIMITED,
                "Too many calls from this client; retry later.", wait));
    }

    /**
     * The limits before the upstream's own (its share of the upstream's concurrency, its breakers
     * and its concurrency, which {@link Guard#admit} applies next): this client's rate, for a tool
     * call (see {@link #spendRate} for the others), recorded when it refuses.
     */
    private Optional<ErrorPipeline.Outcome> refusal(UpstreamLink link, RequestContext ctx, Optional<String> tool) {
        if (tool.isPresent()) {
            Optional<Guard.Refusal> refused = rateRefusal();
            if (refused.isPresent()) {
                return Optional.of(profile.pipeline(link).refused(ctx.method(), tool, refused.get()));
            }
        }
        services.parked().sweep(); // calls parked past their time give their places back first
        return Optional.empty();
    }

    /** The request and its answer on a connection this client can be asked on (with a stateless upstream's input rounds). */
    private UpstreamReply exchange(UpstreamLink link, RequestContext ctx, McpClient client, ObjectNode sent,
            RequestOptions options, Guard.Permit permit, Optional<String> tool) throws Exception {
        boolean bridged = client.protocolVersion().stateless() && !StatelessRules.stateless(ctx);
        UpstreamSpan span = UpstreamTraces.start(spans, link, ctx, sent);
        ObjectNode traced = span.sent();
        link.enter(client, asker, ctx.method());
        inFlight.started(ctx.id(), client, ctx.params());
        try {
            OutgoingRequest out;
            try {
                out = client.requestAsync(ctx.method(), traced, options);
            } catch (RuntimeException e) {
                permit.unanswered(e);
                return UpstreamTraces.ended(span, new UpstreamReply.Recorded(
                        UpstreamFailures.unavailable(profile.pipeline(link), ctx.method(), tool, e)));
            }
            span.sentAs(out.id());
            try {
                JsonNode result = out.get();
                if (bridged) {
                    // A stateless upstream asks for input in its answer; this client is asked, as a
                    // session-based server would have asked it, and the request is sent again.
                    result = StatelessRules.sessionShaped(inputRounds.run(client, ctx.method(), traced, options, result));
                }
                span.answered(result);
                return new UpstreamReply.Answered(settled(link, permit, client, result));
            } catch (InterruptedException e) {
                permit.withdrawn(); // the client gave up, not the upstream
                out.cancel("Cancelled by the client");
                span.cancelled();
                throw e;
            } catch (ExecutionException e) {
                return UpstreamTraces.ended(span,
                        UpstreamFailures.failed(link, profile.pipeline(link), ctx, permit, tool, e.getCause()));
            } catch (Exception | Error e) {
                // Anything else (the client refusing a bridged upstream's question, say) says nothing
                // of the server; the permit's places still go back, or the client would wait for ever.
                permit.withdrawn();
                span.cancelled();
                throw e;
            }
        } finally {
            inFlight.ended(ctx.id());
            link.leave(client, asker, ctx.method());
        }
    }

    /** The upstream answered: the permit is released, and its notifications sent so far go first. */
    static JsonNode settled(UpstreamLink link, Guard.Permit permit, McpClient client, JsonNode result)
            throws InterruptedException {
        permit.answered();
        try {
            client.notificationsHandled().get(5, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            LOG.log(System.Logger.Level.DEBUG, "notifications of upstream {0} still pending", link.name());
        }
        return result;
    }

    /** The client's params as the upstream gets them: without what only concerns the client's own connection. */
    public static ObjectNode params(RequestContext ctx) {
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
}
