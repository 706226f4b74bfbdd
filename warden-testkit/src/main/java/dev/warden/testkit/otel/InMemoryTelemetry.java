package dev.warden.testkit.otel;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The real OpenTelemetry SDK exporting to memory, what the span and metric tests of several
 * modules assert on: a span is exported as it ends (a simple processor, so it is there once the
 * answer it ends with was written), metrics are read when asked, and the context travels as W3C
 * Trace Context. A caller's own context ({@link #TRACEPARENT}) to send.
 * {@code McpTelemetry.of(traces.sdk())} turns it into Warden's telemetry.
 */
public final class InMemoryTelemetry implements AutoCloseable {

    /** A caller's trace, span and the {@code traceparent} naming them: the parent of what a test starts. */
    public static final String TRACE = "0af7651916cd43dd8448eb211c80319c";
    public static final String SPAN = "b7ad6b7169203331";
    public static final String TRACEPARENT = "00-" + TRACE + "-" + SPAN + "-01";

    private static final Duration HANG_GUARD = Duration.ofSeconds(10);

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final InMemoryMetricReader metrics = InMemoryMetricReader.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();

    public InMemoryTelemetry() {
        // nothing more: the SDK above is built as the object is
    }

    public OpenTelemetrySdk sdk() {
        return sdk;
    }

    /** Every span ended so far, in the order they ended. */
    public List<SpanData> spans() {
        return spans.getFinishedSpanItems();
    }

    public List<SpanData> spans(SpanKind kind, String name) {
        return spans().stream().filter(s -> s.getKind() == kind && s.getName().equals(name)).toList();
    }

    /** The one span of {@code kind} named {@code name}; fails listing them all when there is not exactly one. */
    public SpanData only(SpanKind kind, String name) {
        List<SpanData> found = spans(kind, name);
        if (found.size() != 1) {
            throw new AssertionError("expected one " + kind + " span \"" + name + "\", got " + spans());
        }
        return found.get(0);
    }

    /** The metric {@code name} as collected now (collecting resets nothing: histograms are cumulative). */
    public Optional<MetricData> metric(String name) {
        return metrics.collectAllMetrics().stream().filter(m -> m.getName().equals(name)).findFirst();
    }

    /**
     * The metric {@code name} once something recorded it: for what is recorded as a connection's
     * close completes, on the thread that completes it. The wait is a hang guard, not a pace.
     */
    public MetricData awaitMetric(String name) throws InterruptedException {
        long deadline = System.nanoTime() + HANG_GUARD.toNanos();
        while (true) {
            Optional<MetricData> found = metric(name);
            if (found.isPresent()) {
                return found.get();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + name + " recorded within " + HANG_GUARD);
            }
            Thread.sleep(5);
        }
    }

    /** Forgets the spans ended so far (what a test's setup made). */
    public void reset() {
        spans.reset();
    }

    /** Everything a span holds as text: name, attributes, status, events and links, for "nothing leaked" checks. */
    public static String everything(SpanData span) {
        return span.getName() + " " + span.getAttributes() + " " + span.getStatus() + " " + span.getEvents()
                + " " + span.getLinks();
    }

    @Override
    public void close() {
        sdk.close();
    }
}
