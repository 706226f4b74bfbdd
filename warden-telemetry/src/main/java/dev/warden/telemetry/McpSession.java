package dev.warden.telemetry;

import dev.warden.telemetry.internal.Labels;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.trace.SpanKind;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * One MCP session, timed from its connection's start to its close: {@code mcp.server.session.duration}
 * on the side that serves it, {@code mcp.client.session.duration} on the side that opened it, with
 * the conventions' attributes (the transport, the negotiated {@code mcp.protocol.version}, a client's
 * {@code server.address}/{@code server.port}; {@code error.type} only when it ended in an error). A
 * stateless exchange is no session and records nothing. Recorded once.
 */
public final class McpSession {

    private static final McpSession NOOP = new McpSession(Optional.empty(), SpanKind.SERVER, () -> 0L,
            Attributes.empty());

    private final Optional<DoubleHistogram> histogram;
    private final SpanKind kind;
    private final LongSupplier nanoClock;
    private final long started;
    private final Attributes own;
    private final AtomicBoolean ended = new AtomicBoolean();

    McpSession(Optional<DoubleHistogram> histogram, SpanKind kind, LongSupplier nanoClock, Attributes own) {
        this.histogram = histogram;
        this.kind = kind;
        this.nanoClock = nanoClock;
        this.started = nanoClock.getAsLong();
        this.own = own;
    }

    static McpSession noop() {
        return NOOP;
    }

    /** The session ended as sessions do (either side closed it). */
    public void end(Channel channel) {
        record(channel, Optional.empty());
    }

    /** The session ended in an error: {@code error.type} is the reason's. */
    public void failed(Channel channel, Outcome.Reason reason) {
        record(channel, Optional.of(reason.errorType()));
    }

    /**
     * Ends once {@code closed} completes: with the channel {@code session} gives then, which is empty
     * when the connection turned out to be no session (a stateless exchange, or never initialized),
     * and then nothing is recorded; a close completed exceptionally is {@code _OTHER}.
     */
    public void endWhen(CompletionStage<?> closed, Supplier<Optional<Channel>> session) {
        Objects.requireNonNull(session, "session");
        if (this == NOOP) {
            return;
        }
        closed.whenComplete((v, failure) -> session.get().ifPresentOrElse(channel -> {
            if (failure == null) {
                end(channel);
            } else {
                failed(channel, Outcome.Reason.OTHER);
            }
        }, () -> ended.set(true)));
    }

    private void record(Channel channel, Optional<String> errorType) {
        Objects.requireNonNull(channel, "channel");
        if (histogram.isEmpty() || !ended.compareAndSet(false, true)) {
            return;
        }
        AttributesBuilder attributes = Attributes.builder().putAll(own);
        Labels.describe(channel, kind, attributes);
        errorType.ifPresent(type -> attributes.put(McpNames.ERROR_TYPE, type));
        histogram.get().record((nanoClock.getAsLong() - started) / 1e9, attributes.build());
    }
}
