package dev.warden.gateway.internal.call;

import dev.warden.client.McpClient;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.session.OutgoingRequest;
import dev.warden.core.session.RequestContext;
import dev.warden.core.session.RequestOptions;
import dev.warden.gateway.internal.client.ClientProfile;
import dev.warden.gateway.internal.failure.ErrorPipeline;
import dev.warden.gateway.internal.limits.Guard;
import dev.warden.gateway.internal.parked.ParkedCall;
import dev.warden.gateway.internal.parked.ParkedCalls;
import dev.warden.gateway.internal.tracing.ServerSpans;
import dev.warden.gateway.internal.tracing.UpstreamSpan;
import dev.warden.gateway.internal.upstream.UpstreamLink;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The rounds of a stateless client's call to a session-based upstream ({@link ParkedCall}): each
 * question the upstream asks mid-call parks the call and goes back to the client as an
 * input-required result; the client's next round, carrying the call's request state, answers
 * and waits for what comes next.
 */
final class ParkedRounds {

    private final ClientProfile profile;
    private final Services services;
    private final ServerSpans spans;

    ParkedRounds(ClientProfile profile, Services services, ServerSpans spans) {
        this.profile = profile;
        this.services = services;
        this.spans = spans;
    }

    /** The first round: the call goes upstream as one that can be parked. */
    UpstreamReply start(UpstreamLink link, RequestContext ctx, McpClient client, ObjectNode sent, RequestOptions options,
            Guard.Permit permit, Optional<String> tool) throws Exception {
        ParkedCall call = new ParkedCall(link, client, ctx.method(), sent.path(nameField(ctx.method())).asString(""),
                permit, services.parked().tokens());
        // The upstream call outlives this round: its span goes with the call, ended by the last round.
        UpstreamSpan span = UpstreamTraces.start(spans, link, ctx, sent);
        call.traced(span);
        try {
            OutgoingRequest out = client.requestAsync(ctx.method(), span.sent(), options);
            span.sentAs(out.id());
            call.start(out);
        } catch (RuntimeException e) {
            call.leave();
            permit.unanswered(e);
            return UpstreamTraces.ended(span, new UpstreamReply.Recorded(
                    UpstreamFailures.unavailable(profile.pipeline(link), ctx.method(), tool, e)));
        }
        return next(link, ctx, call, tool, client);
    }

    /** A stateless client's next round of a parked call: its answers go to the upstream's questions. */
    UpstreamReply resume(UpstreamLink link, RequestContext ctx, ObjectNode params, Optional<String> tool) throws Exception {
        String token = params.path("requestState").asString("");
        ProtocolException unknown = ProtocolException.invalidParams(
                "Invalid params: the requestState is unknown, expired or for another request");
        ParkedCall call = services.parked().take(token, profile.key()).orElseThrow(() -> unknown);
        if (!call.resumableBy(link, ctx.method(), params.path(nameField(ctx.method())).asString(""))) {
            call.abandon("Resumed by a different request");
            throw unknown;
        }
        call.answer(params.path("inputResponses"));
        return next(link, ctx, call, tool, call.session());
    }

    /**
     * The next event of a parked call, for this round of its client: the upstream's answer ends it;
     * a question parks it and goes to the client as an input-required result.
     */
    private UpstreamReply next(UpstreamLink link, RequestContext ctx, ParkedCall call, Optional<String> tool,
            McpClient client) throws Exception {
        Optional<ObjectNode> questions;
        try {
            questions = call.next(profile.capabilities());
        } catch (InterruptedException | ProtocolException e) {
            // This round's client went away, or cannot give what is asked: the call ends, upstream too.
            services.parked().forget(call);
            call.abandon(e instanceof InterruptedException ? "Cancelled by the client"
                    : "The client lacks a capability the call needs");
            throw e;
        }
        if (questions.isPresent()) {
            Optional<ErrorPipeline.Outcome> refused = park(link, ctx, call, tool);
            return refused.<UpstreamReply>map(UpstreamReply.Recorded::new)
                    .orElseGet(() -> new UpstreamReply.Answered(questions.get()));
        }
        services.parked().forget(call);
        call.leave();
        UpstreamReply reply;
        try {
            reply = new UpstreamReply.Answered(UpstreamCalls.settled(link, call.permit(), client, call.upstream().get()));
        } catch (ExecutionException e) {
            reply = UpstreamFailures.failed(link, profile.pipeline(link), ctx, call.permit(), tool, e.getCause());
        }
        UpstreamReply last = reply;
        call.span().ifPresent(span -> UpstreamTraces.ended(span, last));
        return last;
    }

    /** Parks the call until its client's next round, or refuses it (recorded) when the bounds are reached. */
    private Optional<ErrorPipeline.Outcome> park(UpstreamLink link, RequestContext ctx, ParkedCall call,
            Optional<String> tool) {
        Optional<ParkedCalls.Full> full = services.parked().park(call, profile.key(), parkFor(link), link.parkedShare());
        if (full.isEmpty()) {
            return Optional.empty();
        }
        call.abandon("The gateway holds too many calls waiting for input");
        String limit = switch (full.get()) {
            case CLIENT -> "parkedCallsPerClient";
            case GATEWAY -> "parkedCalls";
            case UPSTREAM -> "parkedShareOfMaxConcurrent";
        };
        services.metrics().limitRefused(link.name(), limit);
        return Optional.of(profile.pipeline(link).local(ctx.method(), tool, ErrorCode.RATE_LIMITED,
                switch (full.get()) {
                    case CLIENT -> "This client has too many calls waiting for input; retry later.";
                    case GATEWAY -> "The gateway holds too many calls waiting for input; retry later.";
                    case UPSTREAM -> "This server has too many calls waiting for input; retry later.";
                },
                new IllegalStateException("parked calls full: " + limit)));
    }

    /** How long a parked call waits for its client's next round: as long as the upstream would wait, at least five minutes. */
    private static Duration parkFor(UpstreamLink link) {
        Duration timeout = link.spec().timeout();
        return timeout.compareTo(Duration.ofMinutes(5)) > 0 ? timeout : Duration.ofMinutes(5);
    }

    private static String nameField(String method) {
        return "resources/read".equals(method) ? "uri" : "name";
    }
}
