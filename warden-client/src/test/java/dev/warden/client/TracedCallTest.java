package dev.warden.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.NotFoundFailure;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.json.Json;
import dev.warden.core.transport.IdentifiedSession;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import dev.warden.telemetry.Channel;
import dev.warden.telemetry.McpNames;
import dev.warden.telemetry.McpTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Warden's client calling Warden's server in one process, both traced through one SDK that exports
 * to memory: one trace from the caller's span through the CLIENT span to the SERVER span, named by
 * the conventions, and a failing tool whose exception message reaches no span.
 */
class TracedCallTest {

    private static final String CANARY = "canary-5f1e7 could not open /srv/orders/secrets.yml";

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final InMemoryMetricReader metrics = InMemoryMetricReader.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    private final McpTelemetry telemetry = McpTelemetry.of(sdk);
    private final McpServer server = McpServer.builder("orders", "1.0.0")
            .telemetry(telemetry)
            .tool(ToolSpec.builder("refund").handler(call -> ToolResult.text("refunded")).build())
            .tool(ToolSpec.builder("lookup").handler(call -> {
                throw new NotFoundFailure("No such order");
            }).build())
            .tool(ToolSpec.builder("explode").handler(call -> {
                throw new IllegalStateException(CANARY);
            }).build())
            .build();
    private final McpClient client = McpClient.builder("agent", "1.0.0")
            .telemetry(telemetry.with(McpNames.WARDEN_UPSTREAM, "orders"))
            .connect(() -> {
                InMemoryTransport.Pair pair = InMemoryTransport.pair();
                server.connect(pair.right());
                return pair.left();
            });

    @AfterEach
    void close() {
        client.close();
        sdk.close();
    }

    private List<SpanData> named(String name) {
        return spans.getFinishedSpanItems().stream().filter(s -> s.getName().equals(name)).toList();
    }

    private SpanData one(String name, SpanKind kind) {
        List<SpanData> found = named(name).stream().filter(s -> s.getKind() == kind).toList();
        assertThat(found).as("%s %s spans in %s", kind, name, spans.getFinishedSpanItems()).hasSize(1);
        return found.get(0);
    }

    @Test
    void oneTraceRunsFromTheCallerThroughTheClientToTheServer() {
        Span caller = sdk.getTracer("test").spanBuilder("agent step").startSpan();
        try (Scope ignored = caller.makeCurrent()) {
            assertThat(client.callTool("refund", Json.object()).isError()).isFalse();
        } finally {
            caller.end();
        }

        SpanData clientSpan = one("tools/call refund", SpanKind.CLIENT);
        SpanData serverSpan = one("tools/call refund", SpanKind.SERVER);
        assertThat(clientSpan.getTraceId()).isEqualTo(caller.getSpanContext().getTraceId());
        assertThat(clientSpan.getParentSpanId()).isEqualTo(caller.getSpanContext().getSpanId());
        assertThat(serverSpan.getTraceId()).isEqualTo(clientSpan.getTraceId());
        assertThat(serverSpan.getParentSpanId()).isEqualTo(clientSpan.getSpanId());
        for (SpanData span : List.of(clientSpan, serverSpan)) {
            assertThat(span.getAttributes().get(McpNames.MCP_METHOD_NAME)).isEqualTo("tools/call");
            assertThat(span.getAttributes().get(McpNames.GEN_AI_TOOL_NAME)).isEqualTo("refund");
            assertThat(span.getAttributes().get(McpNames.GEN_AI_OPERATION_NAME)).isEqualTo("execute_tool");
            assertThat(span.getAttributes().get(McpNames.MCP_PROTOCOL_VERSION)).isEqualTo(client.protocolVersion().wire());
            assertThat(span.getAttributes().get(McpNames.ERROR_TYPE)).isNull();
            assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        }
        assertThat(serverSpan.getAttributes().get(McpNames.JSONRPC_REQUEST_ID))
                .isEqualTo(clientSpan.getAttributes().get(McpNames.JSONRPC_REQUEST_ID)).isNotNull();
        assertThat(clientSpan.getAttributes().get(McpNames.WARDEN_UPSTREAM)).isEqualTo("orders");
        assertThat(serverSpan.getAttributes().get(McpNames.WARDEN_UPSTREAM)).as("the client's own").isNull();
    }

    @Test
    void theHandshakeAndListingAreTracedToo() {
        assertThat(spans.getFinishedSpanItems()).extracting(SpanData::getName)
                .contains(client.protocolVersion().stateless() ? "server/discover" : "initialize");
        client.listTools();
        assertThat(one("tools/list", SpanKind.SERVER).getParentSpanId())
                .isEqualTo(one("tools/list", SpanKind.CLIENT).getSpanId());
    }

    /** The server's end of a session known by an id, as Streamable HTTP's session transports are. */
    private record Identified(Transport delegate, String sessionId) implements Transport, IdentifiedSession {
        @Override
        public void start(Listener listener) {
            delegate.start(listener);
        }

        @Override
        public void send(String frame) {
            delegate.send(frame);
        }

        @Override
        public void close() {
            delegate.close();
        }
    }

    @Test
    void aSessionIsNamedByADigestOfItsIdNeverTheId() {
        McpClient named = McpClient.builder("agent", "1.0.0").telemetry(McpTelemetry.noop()).connect(() -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(new Identified(pair.right(), "sess-secret-4711"));
            return pair.left();
        });
        try {
            named.callTool("refund", Json.object());
        } finally {
            named.close();
        }
        SpanData span = one("tools/call refund", SpanKind.SERVER);
        assertThat(span.getAttributes().get(McpNames.MCP_SESSION_ID))
                .isEqualTo(Channel.inProcess().withSession("sess-secret-4711").sessionDigest().orElseThrow());
        assertThat(span.getAttributes().asMap().values()).allSatisfy(v ->
                assertThat(String.valueOf(v)).doesNotContain("sess-secret"));
    }

    @Test
    void aNotificationIsAClientSpanAndTheServerSpanItsChild() {
        client.notify("notifications/roots/list_changed", Json.object());
        client.listTools(); // read after the notification on the server's one reader: it has been handled

        SpanData sent = one("notifications/roots/list_changed", SpanKind.CLIENT);
        SpanData received = one("notifications/roots/list_changed", SpanKind.SERVER);
        assertThat(received.getParentSpanId()).isEqualTo(sent.getSpanId());
        assertThat(received.getAttributes().get(McpNames.JSONRPC_REQUEST_ID)).isNull();
        assertThat(received.getAttributes().get(McpNames.ERROR_TYPE)).isNull();
    }

    @Test
    void aFailingToolEndsAsToolErrorWithItsRefAndNoSpanHoldsItsMessage() {
        ToolCallResult result = client.callTool("explode", Json.object());
        assertThat(result.isError()).isTrue();
        String ref = result.structuredContent().orElseThrow().path("error").path("ref").asString();
        assertThat(ref).startsWith("ref_");

        for (SpanKind kind : List.of(SpanKind.CLIENT, SpanKind.SERVER)) {
            SpanData span = one("tools/call explode", kind);
            assertThat(span.getAttributes().get(McpNames.ERROR_TYPE)).isEqualTo("tool_error");
            assertThat(span.getAttributes().get(McpNames.WARDEN_ERROR_CODE)).isEqualTo("INTERNAL_ERROR");
            assertThat(span.getAttributes().get(McpNames.WARDEN_REF)).isEqualTo(ref);
            assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        }
        assertThat(spans.getFinishedSpanItems()).allSatisfy(span -> {
            assertThat(span.getStatus().getDescription()).doesNotContain("canary").doesNotContain("/srv/");
            assertThat(span.getAttributes().asMap().values()).allSatisfy(v ->
                    assertThat(String.valueOf(v)).doesNotContain("canary").doesNotContain("/srv/"));
            assertThat(span.getEvents()).allSatisfy(event -> assertThat(event.getAttributes().asMap().values())
                    .allSatisfy(v -> assertThat(String.valueOf(v)).doesNotContain("canary")));
            assertThat(span.getName()).doesNotContain("canary");
        });

        HistogramPointData point = serverPoints().stream()
                .filter(p -> "explode".equals(p.getAttributes().get(McpNames.GEN_AI_TOOL_NAME)))
                .findFirst().orElseThrow();
        assertThat(point.getAttributes().get(McpNames.ERROR_TYPE)).isEqualTo("tool_error");
        assertThat(point.getAttributes().get(McpNames.WARDEN_ERROR_CODE)).isEqualTo("INTERNAL_ERROR");
        assertThat(point.getCount()).isEqualTo(1);
    }

    @Test
    void aBusinessFailureCarriesItsCode() {
        assertThat(client.callTool("lookup", Json.object()).isError()).isTrue();
        SpanData span = one("tools/call lookup", SpanKind.SERVER);
        assertThat(span.getAttributes().get(McpNames.WARDEN_ERROR_CODE)).isEqualTo("NOT_FOUND");
        assertThat(span.getStatus().getDescription()).isEqualTo("NOT_FOUND");
    }

    @Test
    void aJsonRpcErrorEndsWithTheCodeAndTheMessageTheClientReceived() {
        PeerErrorException refused = (PeerErrorException) org.assertj.core.api.Assertions.catchThrowable(
                () -> client.request("prompts/get", Json.object().put("name", "absent")));
        assertThat(refused).isNotNull();

        // A prompt the server never registered names no span (review r9: a caller's names are unbounded).
        SpanData serverSpan = one("prompts/get", SpanKind.SERVER);
        SpanData clientSpan = one("prompts/get", SpanKind.CLIENT);
        for (SpanData span : List.of(serverSpan, clientSpan)) {
            assertThat(span.getAttributes().get(McpNames.ERROR_TYPE)).isEqualTo(Integer.toString(refused.error().code()));
            assertThat(span.getAttributes().get(McpNames.RPC_RESPONSE_STATUS_CODE))
                    .isEqualTo(Integer.toString(refused.error().code()));
        }
        // The caller's mistake is an error of the CLIENT span only (the conventions, model/mcp/spans.yaml).
        assertThat(clientSpan.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(clientSpan.getStatus().getDescription()).isEqualTo(refused.error().message());
        assertThat(serverSpan.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        assertThat(serverSpan.getAttributes().get(McpNames.WARDEN_REF))
                .isEqualTo(refused.error().data().orElseThrow().path("ref").asString());
        assertThat(clientPoints()).anySatisfy(p -> {
            assertThat(p.getAttributes().get(McpNames.ERROR_TYPE)).isEqualTo(Integer.toString(refused.error().code()));
            assertThat(p.getAttributes().get(McpNames.WARDEN_UPSTREAM)).isEqualTo("orders");
        });
    }

    @Test
    void aClientWithoutTelemetryRecordsNothingAndPutsNothingInMeta() {
        McpClient quiet = McpClient.builder("agent", "1.0.0").telemetry(McpTelemetry.noop()).connect(() -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return pair.left();
        });
        try {
            spans.reset();
            assertThat(quiet.callTool("refund", Json.object()).isError()).isFalse();
            assertThat(spans.getFinishedSpanItems()).extracting(SpanData::getKind).containsOnly(SpanKind.SERVER);
            assertThat(one("tools/call refund", SpanKind.SERVER).getParentSpanContext().isValid())
                    .as("no traceparent came in _meta").isFalse();
        } finally {
            quiet.close();
        }
    }

    private List<HistogramPointData> serverPoints() {
        return points(McpNames.SERVER_OPERATION_DURATION);
    }

    private List<HistogramPointData> clientPoints() {
        return points(McpNames.CLIENT_OPERATION_DURATION);
    }

    private List<HistogramPointData> points(String metric) {
        return metrics.collectAllMetrics().stream().filter(m -> m.getName().equals(metric))
                .flatMap(m -> m.getHistogramData().getPoints().stream()).toList();
    }
}
