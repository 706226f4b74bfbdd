package dev.warden.telemetry;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.telemetry.internal.Capture;
import dev.warden.telemetry.internal.Labels;
import dev.warden.telemetry.internal.MetaCarrier;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One MCP request or notification as a span (SERVER on the receiver, CLIENT on the sender) and one
 * measurement of its duration. It is ended once, with an {@link Outcome}: later ends do nothing.
 * Not for text the peer could not see: {@link #attribute} takes the operator's own names (an
 * upstream's), never an exception's message.
 */
public final class McpOperation {

    private static final McpOperation NOOP = new McpOperation(Span.getInvalid(), SpanKind.INTERNAL, Context.root(),
            TextMapPropagator.noop(), Optional.empty(), Labels.none(), () -> 0L, Capture.OFF);

    private final Span span;
    private final SpanKind kind;
    private final Context context;
    private final TextMapPropagator propagator;
    private final Optional<DoubleHistogram> duration;
    /** The span's name and shared attributes: the measurement's, a failure's added. */
    private final Labels.Built measured;
    private final LongSupplier nanoClock;
    private final long startNanos;
    private final Capture capture;
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile Optional<JsonNode> result = Optional.empty();

    McpOperation(Span span, SpanKind kind, Context context, TextMapPropagator propagator, Optional<DoubleHistogram> duration,
                 Labels.Built measured, LongSupplier nanoClock, Capture capture) {
        this.span = span;
        this.kind = kind;
        this.context = context;
        this.propagator = propagator;
        this.duration = duration;
        this.measured = measured;
        this.nanoClock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
        this.capture = capture;
    }

    /** The operation that records nothing ({@link McpTelemetry#noop()}). */
    static McpOperation noop() {
        return NOOP;
    }

    /** The context with this operation's span: the parent of what its handler does. */
    public Context context() {
        return context;
    }

    /** Makes {@link #context()} current on this thread until the scope closes. */
    public Scope makeCurrent() {
        return context.makeCurrent();
    }

    /** The span itself, for this package's tests: callers add to it through {@link #attribute} only. */
    Span span() {
        return span;
    }

    /** Adds an attribute of the operator's own (e.g. {@link McpNames#WARDEN_UPSTREAM}) to the span. */
    public McpOperation attribute(AttributeKey<String> key, String value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        span.setAttribute(key, value);
        return this;
    }

    /** Adds a numeric attribute of the operator's own (an HTTP status, say) to the span. */
    public McpOperation attribute(AttributeKey<Long> key, long value) {
        Objects.requireNonNull(key, "key");
        span.setAttribute(key, value);
        return this;
    }

    /**
     * The params to send, with this operation's context in {@code _meta}: a copy of {@code params}
     * (never the caller's object changed), or {@code params} as given when nothing is propagated.
     */
    public Optional<JsonNode> propagate(Optional<JsonNode> params) {
        Objects.requireNonNull(params, "params");
        if (this == NOOP || !span.getSpanContext().isValid() || (params.isPresent() && !params.get().isObject())) {
            return params;
        }
        ObjectNode copy = Json.object();
        if (params.isPresent()) {
            for (Map.Entry<String, JsonNode> member : params.get().properties()) {
                copy.set(member.getKey(), member.getValue());
            }
        }
        JsonNode meta = copy.get(McpNames.META);
        copy.set(McpNames.META, meta instanceof ObjectNode object ? object.deepCopy() : Json.object());
        propagator.inject(context, copy, MetaCarrier.SETTER);
        return Optional.of(copy);
    }

    /** The tool's result, kept (sanitized) only when capture is on and the operation ends {@link Outcome.Ok}. */
    public void result(JsonNode value) {
        Objects.requireNonNull(value, "value");
        if (capture.enabled() && span.isRecording()) {
            result = Optional.of(value);
        }
    }

    /**
     * Ends the span and records the duration; only the first call counts. Plain branches, no
     * lambdas or builders: it runs twice a gateway call, and the failures' sets are kept ({@link
     * Labels.Built#failed}).
     */
    public void end(Outcome outcome) {
        Objects.requireNonNull(outcome, "outcome");
        if (this == NOOP || !ended.compareAndSet(false, true)) {
            return;
        }
        Labels.Failed failed = switch (outcome) {
            case Outcome.Ok ok -> {
                Optional<JsonNode> kept = result;
                if (kept.isPresent()) {
                    span.setAttribute(McpNames.GEN_AI_TOOL_CALL_RESULT, capture.sanitized(kept.get()));
                }
                yield measured.ok(); // nothing built: the common case
            }
            case Outcome.ToolError error -> {
                Optional<String> code = error.code().map(Enum::name);
                if (error.ref().isPresent()) {
                    span.setAttribute(McpNames.WARDEN_REF, error.ref().get().value());
                }
                span.setStatus(StatusCode.ERROR, code.orElse(McpNames.TOOL_ERROR));
                yield measured.failed(McpNames.TOOL_ERROR, Optional.empty(), code);
            }
            case Outcome.RpcError error -> {
                String code = Integer.toString(error.code());
                if (error.ref().isPresent()) {
                    span.setAttribute(McpNames.WARDEN_REF, error.ref().get().value());
                }
                if (kind != SpanKind.SERVER || isServerError(error.code())) {
                    span.setStatus(StatusCode.ERROR, error.sanitizedMessage());
                }
                yield measured.failed(code, Optional.of(code), error.wardenCode().map(Enum::name));
            }
            case Outcome.Unanswered none -> {
                span.setStatus(StatusCode.ERROR, none.reason().errorType());
                yield measured.failed(none.reason().errorType(), Optional.empty(), Optional.empty());
            }
        };
        if (!failed.own().isEmpty()) {
            span.setAllAttributes(failed.own());
        }
        span.end();
        if (duration.isPresent()) {
            double seconds = (nanoClock.getAsLong() - startNanos) / 1e9;
            duration.get().record(seconds, failed.measured(), context);
        }
    }

    /**
     * Whether a JSON-RPC error is the server's own failure (the conventions, model/mcp/spans.yaml:
     * -32603 and the server-defined -32000..-32099, but not MCP's -32002, a resource the caller
     * named that is not there); anything else is the caller's mistake, no error of a SERVER span,
     * though its error.type and status code are still recorded.
     */
    private static boolean isServerError(int code) {
        return code == JsonRpcError.INTERNAL_ERROR || (code >= -32099 && code <= -32000 && code != JsonRpcError.MCP_RESOURCE_NOT_FOUND);
    }
}
