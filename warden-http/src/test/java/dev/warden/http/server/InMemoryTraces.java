package dev.warden.http.server;

import dev.warden.telemetry.McpTelemetry;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;

/**
 * The real OpenTelemetry SDK exporting to memory, for the span tests over HTTP: a span is exported
 * as it ends, and ends before the answer it ends with is written. A caller's W3C context to send.
 */
final class InMemoryTraces implements AutoCloseable {

    static final String TRACE = "0af7651916cd43dd8448eb211c80319c";
    static final String SPAN = "b7ad6b7169203331";
    static final String TRACEPARENT = "00-" + TRACE + "-" + SPAN + "-01";

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    final McpTelemetry telemetry = McpTelemetry.of(sdk);

    List<SpanData> spans() {
        return exporter.getFinishedSpanItems();
    }

    @Override
    public void close() {
        sdk.close();
    }
}
