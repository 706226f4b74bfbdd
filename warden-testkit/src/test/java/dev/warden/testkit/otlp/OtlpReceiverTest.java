package dev.warden.testkit.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** The receiver fed by the real OpenTelemetry Java SDK's OTLP/HTTP exporters (JDK HTTP sender). */
class OtlpReceiverTest {

    private static final Duration HANG_GUARD = Duration.ofSeconds(30);

    private static OpenTelemetrySdk sdk(OtlpReceiver receiver, boolean gzip) {
        Resource resource = Resource.getDefault().merge(Resource.create(
                Attributes.of(AttributeKey.stringKey("service.name"), "receiver-test")));
        return OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().setResource(resource)
                        .addSpanProcessor(BatchSpanProcessor.builder(OtlpHttpSpanExporter.builder()
                                .setEndpoint(receiver.endpoint() + "/v1/traces")
                                .setCompression(gzip ? "gzip" : "none").build()).build())
                        .build())
                .setMeterProvider(SdkMeterProvider.builder().setResource(resource)
                        .registerMetricReader(PeriodicMetricReader.builder(OtlpHttpMetricExporter.builder()
                                .setEndpoint(receiver.endpoint() + "/v1/metrics").build()).build())
                        .build())
                .build();
    }

    @Test
    void keepsSpansWithTheirParentsAttributesEventsStatusAndService() throws Exception {
        try (OtlpReceiver receiver = OtlpReceiver.start()) {
            OpenTelemetrySdk sdk = sdk(receiver, false);
            Tracer tracer = sdk.getTracer("test");
            Span parent = tracer.spanBuilder("tools/call echo").setSpanKind(SpanKind.SERVER)
                    .setAttribute("mcp.method.name", "tools/call").setAttribute("jsonrpc.request.id", "7")
                    .setAttribute(AttributeKey.longKey("rpc.response.status_code"), 3L).startSpan();
            try (Scope ignored = parent.makeCurrent()) {
                Span child = tracer.spanBuilder("tools/call upstream").setSpanKind(SpanKind.CLIENT).startSpan();
                child.addEvent("retry", Attributes.of(AttributeKey.booleanKey("warden.retryable"), true));
                child.setStatus(StatusCode.ERROR, "UPSTREAM_ERROR");
                child.end();
            }
            parent.end();
            sdk.shutdown().join(10, TimeUnit.SECONDS);

            List<ReceivedSpan> spans = receiver.awaitSpans(s -> s.size() == 2, HANG_GUARD);
            ReceivedSpan server = spans.stream().filter(s -> s.kind().equals("SERVER")).findFirst().orElseThrow();
            ReceivedSpan client = spans.stream().filter(s -> s.kind().equals("CLIENT")).findFirst().orElseThrow();
            assertThat(server.name()).isEqualTo("tools/call echo");
            assertThat(server.serviceName()).isEqualTo("receiver-test");
            assertThat(server.parentSpanId()).isEmpty();
            assertThat(server.traceId()).hasSize(32).isEqualTo(parent.getSpanContext().getTraceId());
            assertThat(server.spanId()).isEqualTo(parent.getSpanContext().getSpanId());
            assertThat(server.attributes()).containsEntry("mcp.method.name", "tools/call")
                    .containsEntry("jsonrpc.request.id", "7").containsEntry("rpc.response.status_code", 3L);
            assertThat(server.statusCode()).isEqualTo("UNSET");
            assertThat(client.isChildOf(server)).isTrue();
            assertThat(server.isChildOf(client)).isFalse();
            assertThat(client.statusCode()).isEqualTo("ERROR");
            assertThat(client.statusMessage()).isEqualTo("UPSTREAM_ERROR");
            assertThat(client.events()).containsExactly(
                    new ReceivedSpan.Event("retry", Map.of("warden.retryable", true)));
            assertThat(client.attribute("absent")).isEqualTo(Optional.empty());
            assertThat(client.allText()).contains("tools/call upstream", "UPSTREAM_ERROR", "retry",
                    "warden.retryable=true");
        }
    }

    @Test
    void keepsMetricNamesWithTheirPointsAttributes() throws Exception {
        try (OtlpReceiver receiver = OtlpReceiver.start()) {
            OpenTelemetrySdk sdk = sdk(receiver, false);
            LongCounter calls = sdk.getMeter("test").counterBuilder("warden.test.calls").setUnit("{call}").build();
            calls.add(1, Attributes.of(AttributeKey.stringKey("mcp.method.name"), "tools/call"));
            sdk.getMeter("test").histogramBuilder("mcp.server.operation.duration").setUnit("s").build()
                    .record(0.25, Attributes.of(AttributeKey.stringKey("error.type"), "tool_error"));
            sdk.shutdown().join(10, TimeUnit.SECONDS);

            List<ReceivedMetric> metrics = receiver.awaitMetrics(m -> m.size() >= 2, HANG_GUARD);
            assertThat(metrics).contains(
                    new ReceivedMetric("receiver-test", "warden.test.calls", "{call}",
                            List.of(Map.of("mcp.method.name", "tools/call"))),
                    new ReceivedMetric("receiver-test", "mcp.server.operation.duration", "s",
                            List.of(Map.of("error.type", "tool_error"))));
        }
    }

    @Test
    void decodesGzippedExports() throws Exception {
        try (OtlpReceiver receiver = OtlpReceiver.start()) {
            OpenTelemetrySdk sdk = sdk(receiver, true);
            sdk.getTracer("test").spanBuilder("initialize").startSpan().end();
            sdk.shutdown().join(10, TimeUnit.SECONDS);
            assertThat(receiver.awaitSpans(s -> !s.isEmpty(), HANG_GUARD)).extracting(ReceivedSpan::name)
                    .containsExactly("initialize");
        }
    }

    @Test
    void refusesWhatIsNotOtlpProtobuf() throws Exception {
        try (OtlpReceiver receiver = OtlpReceiver.start(); HttpClient http = HttpClient.newHttpClient()) {
            URI traces = URI.create(receiver.endpoint() + "/v1/traces");
            HttpResponse<Void> json = http.send(HttpRequest.newBuilder(traces).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.discarding());
            HttpResponse<Void> garbage = http.send(HttpRequest.newBuilder(traces)
                    .header("Content-Type", "application/x-protobuf")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(gzip(new byte[] {1, 2, 3}))).build(),
                    HttpResponse.BodyHandlers.discarding());
            HttpResponse<Void> get = http.send(HttpRequest.newBuilder(traces).GET().build(),
                    HttpResponse.BodyHandlers.discarding());
            assertThat(json.statusCode()).isEqualTo(415);
            assertThat(garbage.statusCode()).isEqualTo(400);
            assertThat(get.statusCode()).isEqualTo(405);
            assertThat(receiver.spans()).isEmpty();
        }
    }

    private static byte[] gzip(byte[] bytes) throws java.io.IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try (OutputStream zip = new GZIPOutputStream(out)) {
            zip.write(bytes);
        }
        return out.toByteArray();
    }
}
