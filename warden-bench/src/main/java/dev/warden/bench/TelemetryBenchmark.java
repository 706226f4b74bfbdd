package dev.warden.bench;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.telemetry.Channel;
import dev.warden.telemetry.McpNames;
import dev.warden.telemetry.McpOperation;
import dev.warden.telemetry.McpTelemetry;
import dev.warden.telemetry.Outcome;
import io.opentelemetry.api.baggage.propagation.W3CBaggagePropagator;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.exporter.internal.otlp.traces.LowAllocationTraceRequestMarshaler;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import dev.warden.core.session.SessionObserver;
import dev.warden.telemetry.SessionTelemetry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What tracing costs one call through the gateway, in the gateway's own thread and in its exporter's:
 * the SERVER span of the client's {@code tools/call} (over Streamable HTTP, in a session), the CLIENT
 * span of the call sent upstream (over stdio, its context put into a copy of the params' {@code
 * _meta}), both ended with a result and their durations recorded, on the real SDK (always-on
 * sampling; the finished spans kept, not exported); then, as the exporter's thread does with each
 * batch, the two spans marshalled as OTLP protobuf. {@code noop} is the same call with {@link
 * McpTelemetry#noop()}: what an untraced gateway pays. {@link #bytesPerCall()} is the OTLP size.
 * {@code gateway} is the call as the gateway's session observer makes it, on the SDK as {@code warden}
 * installs it: the SERVER span through {@link SessionTelemetry} (the channel asked per message, the
 * HTTP request's headers read for a context, the W3C trace-context and baggage propagators), ended
 * spans handed to a {@link BatchSpanProcessor} whose exporter drops them (its thread, not the
 * caller's, turns them into span data; its queue larger than the default, so that a benchmark's pace
 * does not make the processor drop spans, a cheaper path than the gateway's).
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TelemetryBenchmark extends AverageTimeBenchmark {

    private final List<SpanData> ended = new ArrayList<>();
    private final LowAllocationTraceRequestMarshaler marshaler = new LowAllocationTraceRequestMarshaler();
    private final ByteArrayOutputStream wire = new ByteArrayOutputStream(4096);
    private OpenTelemetrySdk sdk;
    private McpTelemetry server;
    private McpTelemetry upstream;
    private Channel downstreamChannel;
    private Channel upstreamChannel;
    private JsonRpcMessage.Request request;
    private JsonRpcMessage.Success answer;
    private ObjectNode params;
    private JsonNode result;
    private long ids;
    private OpenTelemetrySdk batched;
    private McpTelemetry gatewayUpstream;
    private SessionObserver gatewaySession;
    private final Map<String, String> headers = Map.of("content-type", "application/json",
            "mcp-session-id", "6f1c2b0e-0c1d-4a57-9d2e-2b8f0f5c1a11", "mcp-protocol-version", "2025-06-18");

    @Setup
    public void setUp() {
        sdk = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().setSampler(Sampler.alwaysOn())
                        .addSpanProcessor(new Keep(ended)).build())
                .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(InMemoryMetricReader.create()).build())
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
        // As the gateway: tools its upstream listed name the spans; one telemetry per upstream.
        McpTelemetry telemetry = McpTelemetry.custom().openTelemetry(sdk)
                .knownTargets((method, name) -> name.equals("echo")).build();
        server = telemetry;
        upstream = telemetry.with(McpNames.WARDEN_UPSTREAM, "everything");
        downstreamChannel = Channel.http().withSession("6f1c2b0e-0c1d-4a57-9d2e-2b8f0f5c1a11")
                .withMcpProtocolVersion("2025-06-18");
        upstreamChannel = Channel.stdio().withMcpProtocolVersion("2025-06-18");
        params = Json.object().put("name", "echo");
        params.putObject("arguments").put("message", "hello");
        request = new JsonRpcMessage.Request(RequestId.of(1), "tools/call", params);
        result = Json.object().set("content", Json.mapper().createArrayNode().add(Json.object().put("type", "text").put("text", "Echo: hello")));
        answer = new JsonRpcMessage.Success(RequestId.of(1), result);
        batched = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().setSampler(Sampler.alwaysOn())
                        .addSpanProcessor(BatchSpanProcessor.builder(new Drop()).setMaxQueueSize(1 << 16).build()).build())
                .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(InMemoryMetricReader.create()).build())
                .setPropagators(ContextPropagators.create(TextMapPropagator.composite(
                        W3CTraceContextPropagator.getInstance(), W3CBaggagePropagator.getInstance())))
                .build();
        McpTelemetry gatewayTelemetry = McpTelemetry.custom().openTelemetry(batched)
                .knownTargets((method, name) -> name.equals("echo")).build();
        gatewayUpstream = gatewayTelemetry.with(McpNames.WARDEN_UPSTREAM, "everything");
        Channel base = Channel.http().withSession("6f1c2b0e-0c1d-4a57-9d2e-2b8f0f5c1a11");
        // As the gateway's ServerSpans: the channel and the HTTP headers' context asked per message.
        gatewaySession = SessionTelemetry.observer(gatewayTelemetry, message -> base.withMcpProtocolVersion("2025-06-18"),
                message -> gatewayTelemetry.extractHeaders(name -> Optional.ofNullable(headers.get(name)),
                        Context.current()));
    }

    @TearDown
    public void tearDown() {
        sdk.close();
        batched.close();
    }

    /** One call as the gateway traces it: the session observer's SERVER span, the upstream CLIENT span, batched. */
    @Benchmark
    public Optional<JsonNode> gateway() throws Exception {
        SessionObserver.Incoming in = gatewaySession.received(request);
        Optional<JsonNode> sent = in.during(() -> {
            McpOperation out = gatewayUpstream.startClient(new JsonRpcMessage.Notification("tools/call",
                    Optional.of(params), java.util.Map.of()), upstreamChannel, Context.current());
            Optional<JsonNode> forwarded = out.propagate(Optional.of(params));
            out.attribute(McpNames.JSONRPC_REQUEST_ID, Long.toString(++ids));
            out.end(Outcome.ofResult(result));
            return forwarded;
        });
        in.ended(Optional.of(answer));
        return sent;
    }

    /** The gateway's telemetry for one call: both spans, both durations. */
    @Benchmark
    public Optional<JsonNode> traced() {
        ended.clear();
        return call(server, upstream);
    }

    /** {@link #traced()}, then the two spans marshalled as the OTLP exporter does. */
    @Benchmark
    public int tracedAndMarshalled() throws IOException {
        ended.clear();
        call(server, upstream);
        return marshal();
    }

    /** The same call with telemetry off: what an untraced gateway pays for the calls alone. */
    @Benchmark
    public Optional<JsonNode> noop() {
        return call(McpTelemetry.noop(), McpTelemetry.noop());
    }

    private Optional<JsonNode> call(McpTelemetry server, McpTelemetry upstream) {
        McpOperation in = server.startServer(request, downstreamChannel, Context.root());
        Optional<JsonNode> sent;
        try (Scope ignored = in.makeCurrent()) {
            McpOperation out = upstream.startClient(new JsonRpcMessage.Notification("tools/call",
                    Optional.of(params), java.util.Map.of()), upstreamChannel, in.context());
            sent = out.propagate(Optional.of(params));
            out.attribute(McpNames.JSONRPC_REQUEST_ID, Long.toString(++ids));
            out.end(Outcome.ofResult(result));
        }
        in.attribute(McpNames.WARDEN_UPSTREAM, "everything");
        in.end(Outcome.sent(answer));
        return sent;
    }

    private int marshal() throws IOException {
        marshaler.initialize(ended);
        wire.reset();
        marshaler.writeBinaryTo(wire);
        marshaler.reset();
        return wire.size();
    }

    /** OTLP bytes of one call's two spans (one batch of one call; a real batch shares its resource and scope). */
    public static int bytesPerCall() throws IOException {
        TelemetryBenchmark bench = new TelemetryBenchmark();
        bench.setUp();
        try {
            bench.traced();
            return bench.marshal();
        } finally {
            bench.tearDown();
        }
    }

    /** An exporter that takes each batch and drops it: the batch processor's own work, no sending. */
    private static final class Drop implements SpanExporter {
        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }

    /** Keeps what ended, as the batch processor's queue does. */
    private record Keep(List<SpanData> into) implements SpanProcessor {
        @Override
        public void onStart(Context parent, ReadWriteSpan span) {
        }

        @Override
        public boolean isStartRequired() {
            return false;
        }

        @Override
        public void onEnd(ReadableSpan span) {
            into.add(span.toSpanData());
        }

        @Override
        public boolean isEndRequired() {
            return true;
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }
}
