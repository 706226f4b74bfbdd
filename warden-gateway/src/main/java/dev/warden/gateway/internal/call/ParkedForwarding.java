package dev.warden.gateway.internal.call;

import dev.warden.core.cluster.ReplicaBus;
import dev.warden.core.cluster.ReplicaCalls;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.FailureContext;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.error.Ref;
import dev.warden.core.error.VisibleFailure;
import dev.warden.core.identity.Caller;
import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.session.RequestContext;
import dev.warden.core.transport.Transport;
import dev.warden.gateway.internal.catalog.ConnectionLinks;
import dev.warden.gateway.internal.client.ClientProfile;
import dev.warden.gateway.internal.client.StatelessRules;
import dev.warden.gateway.internal.limits.ClientKey;
import dev.warden.gateway.internal.parked.ParkedTokens;
import dev.warden.gateway.internal.parked.Tokens;
import dev.warden.gateway.internal.tracing.ForwardedRoundSpan;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Parked calls among several replicas: a stateless client's next round whose request state names
 * another replica ({@link ParkedTokens}) is taken there and answered with what that replica, which
 * holds the call and its upstream's open question, answers ({@link ParkedOwner}). It is never run
 * here: the question is open on the owner's upstream connection, and the tool would run twice.
 * When the owner is down, the bus unreachable, or no answer comes within the call's time, the
 * client gets a retryable error with its request's id (the call is lost with its replica; a new
 * call is the way on). The round's progress crosses when it arrives before the answer; a
 * cancellation of the round here cancels it there.
 */
public final class ParkedForwarding {

    static final String ROUNDS = "parked.round";
    static final String PROGRESS = "parked.progress";
    static final String CANCEL = "parked.cancel";
    /** Methods a call may be parked in (see {@link ParkedRounds}). */
    private static final Set<String> PARKABLE = Set.of("tools/call", "prompts/get", "resources/read");
    /** How often a waiting round looks whether its owner is still up, so a replica's loss ends it soon. */
    private static final Duration LOOK_EVERY = Duration.ofSeconds(1);
    /** Time beyond the call's own for the bus and the owner's answer to cross back. */
    static final Duration MARGIN = Duration.ofSeconds(10);

    private static final ParkedForwarding NONE = new ParkedForwarding(ReplicaBus.none(), null, ParkedTokens.local());

    private final ReplicaBus bus;
    private final ReplicaCalls calls;
    private final ParkedTokens tokens;
    /** This replica's rounds waiting elsewhere, by forward id: where their progress goes. */
    private final Map<String, RequestContext> waiting = new ConcurrentHashMap<>();

    private ParkedForwarding(ReplicaBus bus, ReplicaCalls calls, ParkedTokens tokens) {
        this.bus = bus;
        this.calls = calls;
        this.tokens = tokens;
    }

    /** One process: nothing is forwarded (every round is this gateway's own). */
    public static ParkedForwarding none() {
        return NONE;
    }

    /** Forwarding over {@code bus}, asking with {@code calls} ({@link #serve} answers the others' rounds). */
    public static ParkedForwarding over(ReplicaBus bus, ReplicaCalls calls) {
        if (bus.alone()) {
            return NONE;
        }
        ParkedForwarding forwarding = new ParkedForwarding(bus, calls, ParkedTokens.of(bus));
        bus.on(PROGRESS, (from, body) -> forwarding.progressed(body));
        return forwarding;
    }

    /**
     * Answers the rounds other replicas forward here, serving each through {@code connect} (a
     * client connection of this gateway) within {@code longest}: called once the gateway is ready.
     * Only the next round of a call parked here is served ({@code held} says which request states
     * are, without taking them); each counts among {@code lifecycle}'s calls in flight, and
     * {@code boundary} records and renders the refusals.
     */
    public void serve(Consumer<Transport> connect, Duration longest, java.util.function.Predicate<String> held,
            dev.warden.gateway.health.Lifecycle lifecycle, ErrorBoundary boundary) {
        if (calls == null) {
            return;
        }
        ParkedOwner owner = new ParkedOwner(bus, connect, longest.plus(MARGIN), held, lifecycle, boundary);
        calls.serve(ROUNDS, body -> {
            try {
                return owner.answer(body);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted");
            } catch (Exception e) {
                throw new IllegalStateException("the round could not be served", e);
            }
        });
        bus.on(CANCEL, (from, body) -> owner.cancel(body));
    }

    /** The request states this replica's parked calls hand out. */
    public ParkedTokens tokens() {
        return tokens;
    }

    /** The replica holding the call this request is a later round of, when that is not this one. */
    public Optional<String> ownerElsewhere(RequestContext ctx) {
        if (calls == null || !PARKABLE.contains(ctx.method()) || !StatelessRules.stateless(ctx)) {
            return Optional.empty();
        }
        String state = ctx.params().map(p -> p.path("requestState").asString("")).orElse("");
        return ParkedTokens.owner(state).filter(tokens::elsewhere);
    }

    /**
     * The round forwarded for this connection's client (see the private {@code forward}), under a
     * span of its own whose context the holder's spans continue ({@link ForwardedRoundSpan}).
     */
    public JsonNode forward(String owner, RequestContext ctx, ClientProfile profile, ConnectionLinks links, Services services)
            throws Exception {
        if ("tools/call".equals(ctx.method())) {
            // Checked here, where the request's headers are: the owner serves the round without them.
            ToolCallFlow.headersAgree(ctx, ctx.params().map(p -> p.path("name").asString("")).orElse(""), profile,
                    services);
        }
        Optional<String> address = profile.key() instanceof ClientKey.Address(String a) ? Optional.of(a)
                : Optional.empty();
        ForwardedRoundSpan span = ForwardedRoundSpan.start(services.telemetry(), ctx, owner);
        try {
            JsonNode result = forward(owner, ctx, span.params(), address, profile.caller(), callTime(ctx, links),
                    services.boundary().serving(profile::caller));
            span.answered(result);
            return result;
        } catch (Exception | Error e) {
            span.failed();
            throw e;
        }
    }

    /** How long the round may take: its tool's timeout, else the longest of the upstreams'. */
    private static Duration callTime(RequestContext ctx, ConnectionLinks links) {
        Duration longest = links.all().stream().map(l -> l.spec().timeout()).max(Duration::compareTo)
                .orElse(Duration.ofSeconds(60));
        if (!"tools/call".equals(ctx.method())) {
            return longest;
        }
        String exposed = ctx.params().map(p -> p.path("name").asString("")).orElse("");
        return links.resolve(exposed).map(t -> t.link().spec().timeoutFor(t.name())).orElse(longest);
    }

    /**
     * The owner's answer to this round: its result, or its error as it rendered it; a retryable
     * error when it gives none within {@code within} (the call's own time; the bus's is added).
     *
     * @param address the client's address, when that is what tells it apart
     * @param boundary where this replica records why the round got no answer
     */
    public JsonNode forward(String owner, RequestContext ctx, Optional<String> address, Optional<Caller> caller,
            Duration within, ErrorBoundary boundary) throws Exception {
        return forward(owner, ctx, ctx.params(), address, caller, within, boundary);
    }

    /** As above, the round's params being {@code params} (the client's, with a span's context in {@code _meta}). */
    private JsonNode forward(String owner, RequestContext ctx, Optional<JsonNode> params, Optional<String> address,
            Optional<Caller> caller, Duration within, ErrorBoundary boundary) throws Exception {
        String id = Tokens.random();
        ObjectNode request = JsonRpcCodec.toTree(new JsonRpcMessage.Request(ctx.id(), ctx.method(), params,
                Map.of()));
        String body = new ForwardedRound(id, bus.self(), request, address, caller).write();
        waiting.put(id, ctx);
        try {
            return answered(ctx, await(owner, id, calls.call(owner, ROUNDS, body, within.plus(MARGIN)), ctx,
                    boundary), boundary);
        } finally {
            waiting.remove(id);
        }
    }

    /** The ask's answer; its deadline is the ask's own ({@link ReplicaCalls#call}), ended early when the owner is seen down. */
    private String await(String owner, String id, CompletableFuture<String> asked, RequestContext ctx,
            ErrorBoundary boundary) throws InterruptedException {
        while (true) {
            try {
                return asked.get(LOOK_EVERY.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                // The client gave up on this round: the owner cancels it, as it would have here.
                bus.send(owner, CANCEL, Json.write(Json.object().put("f", id)));
                asked.cancel(true);
                throw e;
            } catch (ExecutionException e) {
                throw lost(ctx, boundary, e.getCause().getMessage());
            } catch (TimeoutException e) {
                if (!bus.alive(owner)) {
                    asked.cancel(true);
                    throw lost(ctx, boundary, "replica " + owner + " went down");
                }
            }
        }
    }

    /** What the owner answered, for this replica's session to send: a result as it is, an error as it was rendered. */
    private JsonNode answered(RequestContext ctx, String frame, ErrorBoundary boundary) {
        JsonNode answer;
        try {
            answer = Json.mapper().readTree(frame);
        } catch (RuntimeException e) {
            throw lost(ctx, boundary, "the owner's answer was unreadable");
        }
        if (answer.has("result")) {
            return answer.get("result");
        }
        JsonNode error = answer.path("error");
        int code = error.path("code").asInt(JsonRpcError.INTERNAL_ERROR);
        String message = error.path("message").asString("");
        if (!JsonRpcError.mayEmit(code) || message.isBlank()) {
            throw lost(ctx, boundary, "the owner's answer was not an error this version allows");
        }
        ErrorCode symbolic = symbolic(error.path("data").path("code").asString(""));
        // The data as the owner rendered it: its ref names the owner's incident, so none is recorded here.
        Optional<ObjectNode> data = error.get("data") instanceof ObjectNode d ? Optional.of(d) : Optional.empty();
        throw new ProtocolException(code, message, symbolic, data);
    }

    private static ErrorCode symbolic(String name) {
        return dev.warden.core.failure.Classifier.declared(name).orElse(ErrorCode.INTERNAL_ERROR);
    }

    /** The round's answer is lost with its replica: retryable, recorded here with why (for the operator only). */
    private static ProtocolException lost(RequestContext ctx, ErrorBoundary boundary, String why) {
        String message = "tools/call".equals(ctx.method())
                ? "The replica holding this call stopped; call the tool again."
                : "The replica holding this request stopped; send it again.";
        ProtocolException e = new ProtocolException(JsonRpcError.INTERNAL_ERROR, message, ErrorCode.UPSTREAM_ERROR);
        Ref ref = boundary.refusal(e, FailureContext.of(ctx.method()), "parked call forwarded: " + why);
        return new ProtocolException(JsonRpcError.INTERNAL_ERROR, VisibleFailure.of(ErrorCode.UPSTREAM_ERROR, message, ref));
    }

    /** Progress of a round waiting elsewhere, to its client; none once the round is answered. */
    private void progressed(String body) {
        JsonNode in = Json.mapper().readTree(body);
        RequestContext ctx = waiting.get(in.path("f").asString(""));
        JsonNode params = in.path("params");
        if (ctx == null || !params.path("progress").isNumber()) {
            return;
        }
        try {
            ctx.progress(params.path("progress").asDouble(),
                    params.path("total").isNumber() ? OptionalDouble.of(params.path("total").asDouble())
                            : OptionalDouble.empty(),
                    Optional.ofNullable(params.get("message")).filter(JsonNode::isString).map(JsonNode::stringValue));
        } catch (RuntimeException e) {
            // the round was answered meanwhile: its stream is closed, and its progress no longer matters
        }
    }
}
