package dev.warden.telemetry;

import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import dev.warden.telemetry.internal.Capture;
import dev.warden.telemetry.internal.Labels;
import dev.warden.telemetry.internal.MetaCarrier;
import dev.warden.telemetry.internal.Targets;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;
import tools.jackson.databind.JsonNode;

/**
 * Warden's MCP telemetry over an {@link OpenTelemetry}: {@link #startServer} for a message the peer
 * sent (SERVER span, parent from {@code params._meta}), {@link #startClient} for one we send
 * (CLIENT span, its context put into the outgoing {@code _meta} by {@link McpOperation#propagate}).
 * Every name comes from {@link McpNames}; docs/reference/telemetry.md has the table.
 *
 * <pre>{@code
 * McpTelemetry telemetry = McpTelemetry.ofGlobal();          // a no-op unless the SDK is installed
 * McpOperation op = telemetry.startServer(request, Channel.stdio());
 * try (Scope s = op.makeCurrent()) { ... }
 * op.end(Outcome.sent(answer));                              // exactly what the peer received
 * }</pre>
 */
public final class McpTelemetry {

    private static final McpTelemetry NOOP = new McpTelemetry(Optional.empty(), false, Capture.OFF,
            System::nanoTime, Attributes.empty(), KnownTargets.NONE);
    /** How often {@link #ofGlobal()} looks for the SDK again while none is installed. */
    private static final long LOOK_AGAIN_NANOS = 1_000_000_000L;

    /** Empty for {@link #noop()}, and for {@link #ofGlobal()} until the SDK is installed: nothing is built. */
    private volatile Optional<Instruments> instruments;
    /** Looks for the application's SDK in {@link GlobalOpenTelemetry} until it finds it. */
    private final boolean global;
    private final Capture capture;
    private final LongSupplier nanoClock;
    private final Attributes own;
    /** The span names and shared attributes built so far, over {@link #own}. */
    private final Labels labels;
    private final KnownTargets known;
    /**
     * {@link #ofGlobal()} until the SDK is installed: {@link GlobalOpenTelemetry#isSet()} takes the
     * global's lock (the API has no lock-free look), so it is asked at the 1st, 2nd, 4th, 8th...
     * message and at least once a second, not at every message. Racy counts only move a look.
     */
    private volatile long unrecorded;
    private volatile long lookAgainAt = Long.MIN_VALUE;

    private record Instruments(Tracer tracer, TextMapPropagator propagator, DoubleHistogram server,
                               DoubleHistogram client, DoubleHistogram serverSession, DoubleHistogram clientSession) {
        static Instruments of(OpenTelemetry otel) {
            Meter meter = otel.getMeter(McpNames.SCOPE);
            return new Instruments(otel.getTracer(McpNames.SCOPE), otel.getPropagators().getTextMapPropagator(),
                    histogram(meter, McpNames.SERVER_OPERATION_DURATION,
                            "MCP request or notification duration as observed on the receiver"),
                    histogram(meter, McpNames.CLIENT_OPERATION_DURATION,
                            "MCP request or notification duration as observed on the sender"),
                    histogram(meter, McpNames.SERVER_SESSION_DURATION,
                            "The duration of the MCP session as observed on the MCP server"),
                    histogram(meter, McpNames.CLIENT_SESSION_DURATION,
                            "The duration of the MCP session as observed on the MCP client"));
        }

        private static DoubleHistogram histogram(Meter meter, String name, String description) {
            return meter.histogramBuilder(name).setUnit(McpNames.SECONDS).setDescription(description)
                    .setExplicitBucketBoundariesAdvice(McpNames.DURATION_BUCKETS).build();
        }
    }

    private McpTelemetry(Optional<Instruments> instruments, boolean global, Capture capture, LongSupplier nanoClock,
                         Attributes own, KnownTargets known) {
        this(instruments, global, capture, nanoClock, own, new Labels(own), known);
    }

    private McpTelemetry(Optional<Instruments> instruments, boolean global, Capture capture, LongSupplier nanoClock,
                         Attributes own, Labels labels, KnownTargets known) {
        this.labels = labels;
        this.known = known;
        this.instruments = instruments;
        this.global = global;
        this.capture = capture;
        this.nanoClock = nanoClock;
        this.own = own;
    }

    /** Telemetry through {@code openTelemetry}'s tracer, meter and propagators. */
    public static McpTelemetry of(OpenTelemetry openTelemetry) {
        return custom().openTelemetry(openTelemetry).build();
    }

    /**
     * Through {@link GlobalOpenTelemetry}: a no-op until the application installs the SDK, then
     * the SDK's. It never calls {@link GlobalOpenTelemetry#get()} before then, which would fix the
     * global to a no-op and make the application's own {@code set} fail.
     */
    public static McpTelemetry ofGlobal() {
        return new McpTelemetry(Optional.empty(), true, Capture.OFF, System::nanoTime, Attributes.empty(),
                KnownTargets.NONE);
    }

    /** Nothing recorded, nothing propagated, nothing parsed. */
    public static McpTelemetry noop() {
        return NOOP;
    }

    public static Builder custom() {
        return new Builder();
    }

    /**
     * The same telemetry, with {@code key=value} on every span and measurement it starts: the
     * operator's own low-cardinality names, e.g. {@link McpNames#WARDEN_UPSTREAM} for one upstream.
     */
    public McpTelemetry with(AttributeKey<String> key, String value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        return new McpTelemetry(instruments, global, capture, nanoClock, own.toBuilder().put(key, value).build(), known);
    }

    /**
     * The same telemetry, naming spans and metrics by the tools and prompts {@code known} says are
     * registered (a server's registry, a gateway's catalog, what a server listed to a client); any
     * other name is left out, so a caller's invented names make no new series.
     */
    public McpTelemetry knowing(KnownTargets known) {
        Objects.requireNonNull(known, "known");
        return this == NOOP ? NOOP : new McpTelemetry(instruments, global, capture, nanoClock, own, labels, known);
    }

    /**
     * Whether operations are recorded now: false for {@link #noop()}, and for {@link #ofGlobal()}
     * until the SDK is installed, so a caller skips its per-message work (cheap: no lock taken).
     */
    public boolean recording() {
        return instruments().isPresent();
    }

    /** The sanitizer a peer's error message passes through before it is a span's status. */
    Sanitizer sanitizer() {
        return capture.sanitizer();
    }

    /** The policy {@link #sanitizer()} applies. */
    Policy policy() {
        return capture.policy();
    }

    /** A request or notification the peer sent; the parent is its {@code _meta}'s context, else the current one. */
    public McpOperation startServer(JsonRpcMessage received, Channel channel) {
        return startServer(received, channel, Context.current());
    }

    /**
     * As {@link #startServer(JsonRpcMessage, Channel)}, with the transport's context (extracted from
     * HTTP headers, say): the parent when {@code _meta} carries none, else a link.
     */
    public McpOperation startServer(JsonRpcMessage received, Channel channel, Context transport) {
        Objects.requireNonNull(transport, "transport");
        Optional<Instruments> started = started(received, channel);
        if (started.isEmpty()) {
            return McpOperation.noop();
        }
        Instruments in = started.get();
        Context parent = transport;
        Optional<SpanContext> link = Optional.empty();
        // The propagators read _meta's members only: without a _meta, nothing to ask them.
        Optional<JsonNode> params = Targets.params(received);
        if (params.isPresent() && params.get().has(McpNames.META)) {
            Context fromMeta = in.propagator().extract(transport, params.get(), MetaCarrier.GETTER);
            SpanContext remote = Span.fromContext(fromMeta).getSpanContext();
            SpanContext carried = Span.fromContext(transport).getSpanContext();
            if (remote.isValid() && !remote.equals(carried)) {
                parent = fromMeta;
                link = carried.isValid() ? Optional.of(carried) : Optional.empty();
            }
        }
        return start(in, SpanKind.SERVER, in.server(), received, channel, parent, link);
    }

    /** A session served from now on, timed until it ends ({@code mcp.server.session.duration}). */
    public McpSession startServerSession() {
        return session(SpanKind.SERVER);
    }

    /** A session opened from now on, timed until it ends ({@code mcp.client.session.duration}). */
    public McpSession startClientSession() {
        return session(SpanKind.CLIENT);
    }

    private McpSession session(SpanKind kind) {
        return instruments().map(in -> new McpSession(Optional.of(kind == SpanKind.SERVER ? in.serverSession()
                : in.clientSession()), kind, nanoClock, own)).orElseGet(McpSession::noop);
    }

    /** A request or notification we send, a child of the current context. */
    public McpOperation startClient(JsonRpcMessage sent, Channel channel) {
        return startClient(sent, channel, Context.current());
    }

    /** As {@link #startClient(JsonRpcMessage, Channel)}, a child of {@code parent}. */
    public McpOperation startClient(JsonRpcMessage sent, Channel channel, Context parent) {
        Objects.requireNonNull(parent, "parent");
        Optional<Instruments> started = started(sent, channel);
        return started.isEmpty() ? McpOperation.noop()
                : start(started.get(), SpanKind.CLIENT, started.get().client(), sent, channel, parent, Optional.empty());
    }

    /** The instruments to start an operation with; empty when nothing is recorded. */
    private Optional<Instruments> started(JsonRpcMessage message, Channel channel) {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(channel, "channel");
        return instruments();
    }

    /** The context {@code params._meta} carries, over {@code base}; {@code base} when it carries none. */
    public Context extract(JsonNode params, Context base) {
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(base, "base");
        return instruments().map(in -> in.propagator().extract(base, params, MetaCarrier.GETTER)).orElse(base);
    }

    /**
     * The context HTTP headers carry ({@code traceparent}...), over {@code base}: the transport's
     * context a server passes to {@link #startServer(JsonRpcMessage, Channel, Context)}.
     */
    public Context extractHeaders(Function<String, Optional<String>> header, Context base) {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(base, "base");
        return instruments().map(in -> in.propagator().extract(base, header, HEADERS)).orElse(base);
    }

    private static final TextMapGetter<Function<String, Optional<String>>> HEADERS = new TextMapGetter<>() {
        @Override
        public String get(Function<String, Optional<String>> header, String key) {
            return header == null ? null : header.apply(key).orElse(null);
        }
    };

    private Optional<Instruments> instruments() {
        Optional<Instruments> found = instruments;
        if (found.isPresent() || !global) {
            return found;
        }
        long seen = ++unrecorded;
        long now = nanoClock.getAsLong();
        if ((seen & (seen - 1)) != 0 && now - lookAgainAt < 0) {
            return found;
        }
        lookAgainAt = now + LOOK_AGAIN_NANOS;
        if (GlobalOpenTelemetry.isSet()) {
            found = Optional.of(Instruments.of(GlobalOpenTelemetry.get()));
            instruments = found; // racing threads build the same instruments; either is kept
        }
        return found;
    }

    private McpOperation start(Instruments in, SpanKind kind, DoubleHistogram histogram, JsonRpcMessage message,
            Channel channel, Context parent, Optional<SpanContext> link) {
        String method = Targets.method(message);
        Optional<JsonNode> params = Targets.params(message);
        Labels.Built labelled = labels.of(kind, method, Targets.target(method, params, known), channel);
        SpanBuilder builder = in.tracer().spanBuilder(labelled.spanName())
                .setSpanKind(kind).setParent(parent).setAllAttributes(labelled.attributes());
        if (message instanceof JsonRpcMessage.Request request) {
            builder.setAttribute(McpNames.JSONRPC_REQUEST_ID, requestId(request.id()));
        }
        // Plain branches rather than lambdas: this runs for every message, twice a gateway call.
        Optional<String> session = channel.sessionDigest();
        if (session.isPresent()) {
            builder.setAttribute(McpNames.MCP_SESSION_ID, session.get());
        }
        Optional<String> uri = Targets.resourceUri(method, params);
        if (uri.isPresent()) {
            builder.setAttribute(McpNames.MCP_RESOURCE_URI, uri.get());
        }
        if (link.isPresent()) {
            builder.addLink(link.get());
        }
        Span span = builder.startSpan();
        if (capture.enabled() && span.isRecording()) {
            Targets.arguments(method, params).ifPresent(args ->
                    span.setAttribute(McpNames.GEN_AI_TOOL_CALL_ARGUMENTS, capture.sanitized(args)));
        }
        // Only a tool call's result is captured (gen_ai.tool.call.result), never a listing's.
        Capture results = Targets.isToolCall(method) ? capture : Capture.OFF;
        return new McpOperation(span, kind, parent.with(span), in.propagator(), Optional.of(histogram),
                labelled, nanoClock, results);
    }

    /** {@code jsonrpc.request.id}: the id's own value, a string without JSON's quotes. */
    static String requestId(RequestId id) {
        return switch (id) {
            case RequestId.Text text -> text.value();
            case RequestId.Number number -> Long.toString(number.value());
        };
    }

    /** {@link #custom()}: the OpenTelemetry instance, and the opt-in capture of tool calls. */
    public static final class Builder {
        private Optional<OpenTelemetry> openTelemetry = Optional.empty();
        private boolean captureToolCalls;
        private Sanitizer sanitizer = Sanitizer.ofDefaults();
        private Policy policy = Policy.REDACT;
        private KnownTargets known = KnownTargets.NONE;
        private LongSupplier nanoClock = System::nanoTime;

        private Builder() {
        }

        public Builder openTelemetry(OpenTelemetry openTelemetry) {
            this.openTelemetry = Optional.of(Objects.requireNonNull(openTelemetry, "openTelemetry"));
            return this;
        }

        /**
         * Records {@code gen_ai.tool.call.arguments} and {@code gen_ai.tool.call.result} (opt-in by
         * the conventions), each as the {@link #sanitizer} leaves it: never the raw value.
         */
        public Builder captureToolCalls(boolean capture) {
            this.captureToolCalls = capture;
            return this;
        }

        /**
         * The sanitizer captured arguments and results, and a peer's error message before it is a
         * span's status, pass through; Warden's default unless given.
         */
        public Builder sanitizer(Sanitizer sanitizer) {
            this.sanitizer = Objects.requireNonNull(sanitizer, "sanitizer");
            return this;
        }

        /** The policy the {@link #sanitizer} applies ({@link Policy#REDACT} unless given). */
        public Builder policy(Policy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** The tools and prompts that name spans and metrics ({@link McpTelemetry#knowing}); none unless given. */
        public Builder knownTargets(KnownTargets known) {
            this.known = Objects.requireNonNull(known, "known");
            return this;
        }

        /** Where durations are read (System::nanoTime unless given; tests drive their own). */
        public Builder nanoClock(LongSupplier nanoClock) {
            this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
            return this;
        }

        /** Fails when no OpenTelemetry was given: {@link #noop()} is the way to record nothing. */
        public McpTelemetry build() {
            OpenTelemetry otel = openTelemetry.orElseThrow(() -> new IllegalStateException(
                    "openTelemetry is not set: pass one, or use McpTelemetry.ofGlobal() or McpTelemetry.noop()"));
            return new McpTelemetry(Optional.of(Instruments.of(otel)), false,
                    new Capture(captureToolCalls, sanitizer, policy), nanoClock, Attributes.empty(), known);
        }
    }
}
