package dev.warden.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.http.server.McpHttpServer;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import dev.warden.telemetry.McpNames;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The same trace over Streamable HTTP, stateless and session-based: tcp and http on both sides. */
class TracedHttpCallTest {

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    private McpHttpServer http;

    @BeforeEach
    void start() throws Exception {
        McpServer server = McpServer.builder("orders", "1.0.0").telemetry(McpTelemetry.of(sdk))
                .tool(ToolSpec.builder("refund").handler(call -> ToolResult.text("refunded")).build())
                .build();
        http = McpHttpServer.builder().onSession(server::connect).build().start();
    }

    @AfterEach
    void stop() {
        http.close();
        sdk.close();
    }

    enum Version {
        STATELESS(ProtocolVersion.V2026_07_28), SESSION(ProtocolVersion.V2025_11_25);

        final ProtocolVersion version;

        Version(ProtocolVersion version) {
            this.version = version;
        }
    }

    private SpanData one(SpanKind kind) {
        List<SpanData> found = spans.getFinishedSpanItems().stream()
                .filter(s -> s.getName().equals("tools/call refund") && s.getKind() == kind).toList();
        assertThat(found).hasSize(1);
        return found.get(0);
    }

    @Test
    void theRequestsTraceContextGoesInHttpHeadersToo() throws Exception {
        java.util.concurrent.CompletableFuture<String> traceparent = new java.util.concurrent.CompletableFuture<>();
        com.sun.net.httpserver.HttpServer endpoint = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        endpoint.createContext("/mcp", exchange -> {
            traceparent.complete(String.valueOf(exchange.getRequestHeaders().getFirst("traceparent")));
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
        });
        endpoint.start();
        try {
            java.net.URI uri = java.net.URI.create("http://127.0.0.1:" + endpoint.getAddress().getPort() + "/mcp");
            McpClient.Builder builder = McpClient.builder("agent", "1.0.0").telemetry(McpTelemetry.of(sdk))
                    .reconnect(ReconnectPolicy.none());
            org.assertj.core.api.Assertions.catchThrowable(() -> builder.connect(McpClient.http(uri)).close());
        } finally {
            endpoint.stop(0);
        }

        SpanData first = spans.getFinishedSpanItems().stream().filter(s -> s.getKind() == SpanKind.CLIENT)
                .findFirst().orElseThrow();
        assertThat(traceparent.get(20, java.util.concurrent.TimeUnit.SECONDS))
                .startsWith("00-" + first.getTraceId() + "-" + first.getSpanId() + "-");
    }

    @ParameterizedTest
    @EnumSource(Version.class)
    void oneTraceOverHttp(Version version) {
        try (McpClient client = McpClient.builder("agent", "1.0.0").protocolVersion(version.version)
                .telemetry(McpTelemetry.of(sdk)).connect(McpClient.http(http.endpoint()))) {
            assertThat(client.callTool("refund", Json.object()).isError()).isFalse();
        }

        SpanData clientSpan = one(SpanKind.CLIENT);
        SpanData serverSpan = one(SpanKind.SERVER);
        assertThat(serverSpan.getParentSpanId()).isEqualTo(clientSpan.getSpanId());
        for (SpanData span : List.of(clientSpan, serverSpan)) {
            assertThat(span.getAttributes().get(McpNames.NETWORK_TRANSPORT)).isEqualTo("tcp");
            assertThat(span.getAttributes().get(McpNames.NETWORK_PROTOCOL_NAME)).isEqualTo("http");
            assertThat(span.getAttributes().get(McpNames.MCP_PROTOCOL_VERSION)).isEqualTo(version.version.wire());
        }
        assertThat(clientSpan.getAttributes().get(McpNames.SERVER_ADDRESS)).isEqualTo(http.endpoint().getHost());
        assertThat(clientSpan.getAttributes().get(McpNames.SERVER_PORT)).isEqualTo((long) http.endpoint().getPort());
        if (version == Version.SESSION) {
            assertThat(clientSpan.getAttributes().get(McpNames.MCP_SESSION_ID)).hasSize(16);
        }
    }
}
