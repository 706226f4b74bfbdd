package dev.warden.gateway;

import dev.warden.core.json.Json;
import dev.warden.core.transport.Transport;
import dev.warden.telemetry.McpTelemetry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import tools.jackson.databind.JsonNode;

/**
 * What the traces tests share: the real OpenTelemetry SDK exporting to memory (spans are exported
 * as they end, and a span ends before the answer it ends with is written), and a tap on what the
 * gateway sends an upstream.
 */
final class TracedGateway {

    /** A client's own trace context: its span is the parent of the gateway's. */
    static final String CLIENT_TRACE = "0af7651916cd43dd8448eb211c80319c";
    static final String CLIENT_SPAN = "b7ad6b7169203331";
    static final String CLIENT_TRACEPARENT = "00-" + CLIENT_TRACE + "-" + CLIENT_SPAN + "-01";

    final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    final McpTelemetry telemetry = McpTelemetry.of(sdk);

    List<SpanData> spans() {
        return exporter.getFinishedSpanItems();
    }

    List<SpanData> spans(SpanKind kind, String name) {
        return spans().stream().filter(s -> s.getKind() == kind && s.getName().equals(name)).toList();
    }

    SpanData only(SpanKind kind, String name) {
        List<SpanData> found = spans(kind, name);
        if (found.size() != 1) {
            throw new AssertionError("expected one " + kind + " span \"" + name + "\", got " + spans());
        }
        return found.get(0);
    }

    /** Everything a span holds as text: name, attributes, status, events and their attributes. */
    static String everything(SpanData span) {
        return span.getName() + " " + span.getAttributes() + " " + span.getStatus() + " " + span.getEvents()
                + " " + span.getLinks();
    }

    /** The frames the gateway wrote to an upstream connection, in order, as JSON. */
    static final class Tap implements Transport {

        private final Transport inner;
        private final List<JsonNode> sent;

        Tap(Transport inner, List<JsonNode> sent) {
            this.inner = inner;
            this.sent = sent;
        }

        static List<JsonNode> frames() {
            return new CopyOnWriteArrayList<>();
        }

        @Override
        public void start(Listener listener) {
            inner.start(listener);
        }

        @Override
        public void send(String frame) {
            sent.add(Json.mapper().readTree(frame));
            inner.send(frame);
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    /** The {@code tools/call} requests among {@code frames}. */
    static List<JsonNode> calls(List<JsonNode> frames) {
        return frames.stream().filter(f -> "tools/call".equals(f.path("method").asString(""))).toList();
    }
}
