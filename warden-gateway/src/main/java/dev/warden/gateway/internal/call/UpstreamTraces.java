package dev.warden.gateway.internal.call;

import dev.warden.core.session.RequestContext;
import dev.warden.gateway.internal.tracing.ServerSpans;
import dev.warden.gateway.internal.tracing.UpstreamSpan;
import dev.warden.gateway.internal.upstream.UpstreamLink;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The span of a request the gateway sends an upstream for a client's request ({@link
 * UpstreamSpan}), started as it goes and ended by the reply the call path reads, whatever its kind.
 */
final class UpstreamTraces {

    private UpstreamTraces() {
    }

    /** The span of {@code params} going to {@code link} for {@code ctx}'s request; send {@link UpstreamSpan#sent}. */
    static UpstreamSpan start(ServerSpans spans, UpstreamLink link, RequestContext ctx, ObjectNode params) {
        return UpstreamSpan.start(link.telemetry(), link.channel(), spans.of(ctx), ctx.method(), params);
    }

    /** Ends {@code span} as {@code reply} says the call ended; returns the reply. */
    static UpstreamReply ended(UpstreamSpan span, UpstreamReply reply) {
        switch (reply) {
            case UpstreamReply.Answered(JsonNode result) -> span.answered(result);
            case UpstreamReply.ErrorAnswer error -> span.errorAnswer(error.error().code());
            case UpstreamReply.Recorded(var outcome) -> span.unanswered(outcome.code(), outcome.ref());
        }
        return reply;
    }
}
