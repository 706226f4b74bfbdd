package dev.warden.gateway;

import dev.warden.client.McpClient;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.transport.Transport;
import dev.warden.telemetry.McpTelemetry;
import dev.warden.testkit.otel.InMemoryTelemetry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import tools.jackson.databind.JsonNode;

/**
 * What the gateway's traces tests share: the real OpenTelemetry SDK exporting to memory (warden-testkit's
 * {@link InMemoryTelemetry}), a client that lists the tools first, and a tap on what the gateway sends
 * an upstream.
 */
final class TracedGateway {

    /** A client's own trace context: its span is the parent of the gateway's. */
    static final String CLIENT_TRACE = InMemoryTelemetry.TRACE;
    static final String CLIENT_SPAN = InMemoryTelemetry.SPAN;
    static final String CLIENT_TRACEPARENT = InMemoryTelemetry.TRACEPARENT;

    final InMemoryTelemetry otel = new InMemoryTelemetry();
    final McpTelemetry telemetry = McpTelemetry.of(otel.sdk());

    /**
     * Another client lists the tools through {@code gateway}, as clients do before calling: only a
     * tool an upstream listed names a span. That client's own spans are dropped. It keeps a session
     * (a rate of its own), so the tests' clients keep theirs whole.
     */
    void listed(Gateway gateway) {
        try (McpClient lister = McpClient.builder("lister", "1").protocolVersion(ProtocolVersion.latestSessionBased())
                .connect(ViaGateway.to(gateway))) {
            lister.listTools();
        }
        otel.reset();
    }

    List<SpanData> spans() {
        return otel.spans();
    }

    List<SpanData> spans(SpanKind kind, String name) {
        return otel.spans(kind, name);
    }

    SpanData only(SpanKind kind, String name) {
        return otel.only(kind, name);
    }

    /** Everything a span holds as text: name, attributes, status, events and their attributes. */
    static String everything(SpanData span) {
        return InMemoryTelemetry.everything(span);
    }

    /** The frames the gateway wrote to an upstream connection, in order, as JSON. */
    static final class Tap extends ForwardingTransport {

        private final List<JsonNode> sent;

        Tap(Transport inner, List<JsonNode> sent) {
            super(inner);
            this.sent = sent;
        }

        static List<JsonNode> frames() {
            return new CopyOnWriteArrayList<>();
        }

        @Override
        public void send(String frame) {
            sent.add(Json.mapper().readTree(frame));
            super.send(frame);
        }
    }

    /** The {@code tools/call} requests among {@code frames}. */
    static List<JsonNode> calls(List<JsonNode> frames) {
        return frames.stream().filter(f -> "tools/call".equals(f.path("method").asString(""))).toList();
    }
}
