package dev.warden.gateway.internal.call;

import dev.warden.client.McpClient;
import dev.warden.core.session.AsyncRequestHandler;
import dev.warden.core.session.OutgoingRequest;
import dev.warden.core.session.RequestContext;
import dev.warden.core.session.RequestOptions;
import dev.warden.gateway.internal.audit.AuditTrail;
import dev.warden.gateway.internal.catalog.Naming;
import dev.warden.gateway.internal.client.CallsInFlight;
import dev.warden.gateway.internal.client.ClientProfile;
import dev.warden.gateway.internal.client.StatelessRules;
import dev.warden.gateway.internal.limits.Guard;
import dev.warden.gateway.internal.tracing.ServerSpans;
import dev.warden.gateway.internal.tracing.UpstreamSpan;
import dev.warden.gateway.internal.upstream.Asker;
import dev.warden.gateway.internal.upstream.UpstreamLink;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code tools/call} in the common case, without a thread of its own (see {@link
 * AsyncRequestHandler}): the same flow as {@link ToolCallFlow#call}, but the call goes upstream
 * from the thread that read it, and a successful answer is cleaned, recorded and sent from the
 * thread that read the upstream's, so no thread is woken in between; any other end is handled on
 * a thread of its own (it writes incidents). Which path a call takes is one rule, {@link #ready};
 * a call it does not take is left whole to the blocking flow (empty).
 */
public final class ToolCallWithoutThread {

    private final ClientProfile profile;
    private final Services services;
    private final CallsInFlight inFlight;
    private final ToolCallFlow flow;
    private final AuditTrail.RecordMaker audit;
    /** The client connection, as the one an upstream's questions during its calls are put to. */
    private final Asker asker;
    private final ServerSpans spans;

    public ToolCallWithoutThread(ClientProfile profile, Services services, CallsInFlight inFlight, ToolCallFlow flow,
            AuditTrail.RecordMaker audit, Asker asker, ServerSpans spans) {
        this.spans = spans;
        this.profile = profile;
        this.services = services;
        this.inFlight = inFlight;
        this.flow = flow;
        this.audit = audit;
        this.asker = asker;
    }

    /** A call {@link #ready} to go without a thread: its tool, and the connection it goes on. */
    private record Ready(Naming.Target target, String exposed, ObjectNode params, McpClient upstream) {
    }

    /** The call without a thread, or empty: the blocking flow takes it from the start. */
    public Optional<CompletionStage<JsonNode>> call(RequestContext ctx) {
        long start = System.nanoTime();
        return ready(ctx).flatMap(ready -> send(ctx, ready, start));
    }

    /**
     * The one rule for the path: a call goes without a thread when nothing on its way may wait or
     * needs the blocking flow's care: a session-based client without a rate of its own, an audit
     * trail taking requests, a name that resolves to a tool it may call, that tool's upstream
     * connected now on a session-based version, and a place free under its concurrency limit and
     * the client's share of it (the blocking flow waits its turn). The connection found down when
     * the request is written is the same rule met late: the blocking path reconnects.
     */
    private Optional<Ready> ready(RequestContext ctx) {
        if (profile.stateless() || StatelessRules.stateless(ctx) || profile.rated() || services.trail().refusing()) {
            return Optional.empty();
        }
        ObjectNode params = UpstreamCalls.params(ctx);
        String exposed = params.path("name").asString("");
        return flow.visible(exposed).flatMap(target -> {
            UpstreamLink link = target.link();
            Optional<McpClient> connected = link.connectedFor(profile.upstreamCapabilities())
                    .filter(McpClient::isConnected);
            services.parked().sweep(); // calls parked past their time give their places back first
            return connected.filter(c -> !c.protocolVersion().stateless()
                            && link.guard().admitsWithoutWaiting(profile.shareKey()))
                    .map(c -> new Ready(target, exposed, params, c));
        });
    }

    /** Admits the call and writes it upstream; empty if its connection went down since {@link #ready}. */
    private Optional<CompletionStage<JsonNode>> send(RequestContext ctx, Ready ready, long start) {
        Naming.Target target = ready.target();
        String exposed = ready.exposed();
        ObjectNode params = ready.params();
        McpClient upstream = ready.upstream();
        UpstreamLink link = target.link();
        Optional<String> tool = Optional.of(target.name());
        params.put("name", target.name());
        boolean structured = flow.structured(exposed);
        spans.upstream(ctx, link.name());
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        Guard.Permit permit;
        try {
            permit = link.guard().admit(tool, profile.shareKey());
        } catch (Guard.RefusedException e) {
            onThread(answer, ctx, start, () -> flow.answer(target, exposed, ctx, structured, List.of(),
                    new UpstreamReply.Recorded(profile.pipeline(link).refused(ctx.method(), tool, e.refusal()))));
            return Optional.of(answer);
        }
        List<Guard.Permit> permits = List.of(permit);
        RequestOptions options = UpstreamCalls.options(link, ctx, link.spec().timeoutFor(target.name()));
        UpstreamSpan span = UpstreamTraces.start(spans, link, ctx, params);
        link.enter(upstream, asker, ctx.method());
        inFlight.started(ctx.id(), upstream, ctx.params());
        Optional<OutgoingRequest> sent;
        try {
            sent = upstream.requestIfConnected(ctx.method(), span.sent(), options);
        } catch (RuntimeException e) {
            sent = Optional.empty();
        }
        if (sent.isEmpty()) {
            inFlight.ended(ctx.id());
            link.leave(upstream, asker, ctx.method());
            permit.withdrawn();
            span.notSent(); // the blocking flow connects again, under a span of its own
            return Optional.empty();
        }
        OutgoingRequest out = sent.get();
        span.sentAs(out.id());
        ctx.onCancel(() -> out.cancel("Cancelled by the client"));
        out.whenComplete((result, error) -> {
            if (error != null) {
                inFlight.ended(ctx.id());
                link.leave(upstream, asker, ctx.method());
                onThread(answer, ctx, start, () -> {
                    Throwable cause = error instanceof CompletionException c && c.getCause() != null
                            ? c.getCause() : error;
                    if (ctx.cancelled()) {
                        permit.withdrawn(); // the client gave up, not the upstream
                        span.cancelled();
                        throw cause instanceof Exception e ? e : new ExecutionException(cause);
                    }
                    return flow.answer(target, exposed, ctx, structured, permits, UpstreamTraces.ended(span,
                            UpstreamFailures.failed(link, profile.pipeline(link), ctx, permit, tool, cause)));
                });
                return;
            }
            permit.answered();
            span.answered(result);
            // What the upstream said before answering reaches the client first, on this call's
            // stream while the call is still listed as in flight there (as settled() waits for).
            upstream.notificationsHandled().completeOnTimeout(null, 5, TimeUnit.SECONDS).whenComplete((v, e) -> {
                inFlight.ended(ctx.id());
                link.leave(upstream, asker, ctx.method());
                Callable<JsonNode> work = () -> flow.answer(target, exposed, ctx, structured, permits,
                        new UpstreamReply.Answered(result));
                if (result.path("isError").asBoolean(false)) {
                    onThread(answer, ctx, start, work); // a failure is recorded as an incident
                } else {
                    end(answer, ctx, start, work);
                }
            });
        });
        return Optional.of(answer);
    }

    /** {@link #end} on a virtual thread of its own: for work that may block (the incident store). */
    private void onThread(CompletableFuture<JsonNode> answer, RequestContext ctx, long start, Callable<JsonNode> work) {
        Thread.ofVirtual().name("warden-handler").start(() -> end(answer, ctx, start, work));
    }

    /** Does the work, records the request as {@link AuditTrail#around} would, and completes its answer. */
    private void end(CompletableFuture<JsonNode> answer, RequestContext ctx, long start, Callable<JsonNode> work) {
        JsonNode result = null;
        Throwable thrown = null;
        try {
            result = work.call();
        } catch (Throwable t) {
            thrown = t;
        }
        try {
            answer.complete(services.trail().ended(ctx, result, thrown, start, audit));
        } catch (Throwable t) {
            answer.completeExceptionally(t);
        }
    }
}
