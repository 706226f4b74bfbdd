package dev.warden.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ToolCallResult;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.server.McpServer;
import dev.warden.telemetry.McpNames;
import dev.warden.telemetry.McpTelemetry;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Which telemetry the starter's server records with: the application's {@code OpenTelemetry} bean
 * (Boot never sets {@code GlobalOpenTelemetry}), its own {@code McpTelemetry} bean before that, the
 * SDK's global default without either; tool calls captured only when
 * {@code warden.mcp.telemetry.capture-tool-calls} says so. Each is seen in the spans of a real call.
 */
class WardenTelemetryTest {

    @TempDir
    Path incidents;

    private ApplicationContextRunner runner() {
        return StarterContexts.withHelloTool(incidents).withPropertyValues("warden.mcp.http.enabled=false");
    }

    /** An SDK that exports every ended span to {@code spans} at once. */
    private static OpenTelemetrySdk sdk(InMemorySpanExporter spans) {
        return OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(spans)).build()).build();
    }

    /** Calls {@code hello} on the context's server with Warden's client, in process. */
    private static ToolCallResult callHello(McpServer server) {
        try (McpClient client = McpClient.builder("test", "1").telemetry(McpTelemetry.noop()).connect(() -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return pair.left();
        })) {
            return client.callTool("hello", Json.object().put("who", "ada"));
        }
    }

    private static List<SpanData> toolCalls(InMemorySpanExporter spans) {
        return spans.getFinishedSpanItems().stream()
                .filter(s -> s.getName().equals("tools/call hello") && s.getKind() == SpanKind.SERVER).toList();
    }

    @Test
    void theApplicationsOpenTelemetryBeanRecordsTheServersSpans() {
        InMemorySpanExporter spans = InMemorySpanExporter.create();
        try (OpenTelemetrySdk sdk = sdk(spans)) {
            runner().withBean(OpenTelemetry.class, () -> sdk).run(context -> {
                assertThat(callHello(context.getBean(McpServer.class)).isError()).isFalse();
                SpanData call = toolCalls(spans).getFirst();
                assertThat(call.getAttributes().get(McpNames.MCP_METHOD_NAME)).isEqualTo("tools/call");
                assertThat(call.getAttributes().get(McpNames.GEN_AI_TOOL_NAME)).isEqualTo("hello");
                // Off unless switched on.
                assertThat(call.getAttributes().get(McpNames.GEN_AI_TOOL_CALL_ARGUMENTS)).isNull();
                assertThat(call.getAttributes().get(McpNames.GEN_AI_TOOL_CALL_RESULT)).isNull();
            });
        }
    }

    @Test
    void captureToolCallsPutsTheArgumentsAndResultOnTheSpan() {
        InMemorySpanExporter spans = InMemorySpanExporter.create();
        try (OpenTelemetrySdk sdk = sdk(spans)) {
            runner().withPropertyValues("warden.mcp.telemetry.capture-tool-calls=true")
                    .withBean(OpenTelemetry.class, () -> sdk).run(context -> {
                        callHello(context.getBean(McpServer.class));
                        SpanData call = toolCalls(spans).getFirst();
                        assertThat(call.getAttributes().get(McpNames.GEN_AI_TOOL_CALL_ARGUMENTS)).contains("ada");
                        assertThat(call.getAttributes().get(McpNames.GEN_AI_TOOL_CALL_RESULT)).contains("hi");
                    });
        }
    }

    @Test
    void theApplicationsOwnMcpTelemetryBeanWinsOverItsOpenTelemetryBean() {
        InMemorySpanExporter beanSpans = InMemorySpanExporter.create();
        InMemorySpanExporter ownSpans = InMemorySpanExporter.create();
        try (OpenTelemetrySdk bean = sdk(beanSpans); OpenTelemetrySdk own = sdk(ownSpans)) {
            runner().withPropertyValues("warden.mcp.telemetry.capture-tool-calls=true")
                    .withBean(OpenTelemetry.class, () -> bean)
                    .withBean(McpTelemetry.class, () -> McpTelemetry.of(own)).run(context -> {
                        callHello(context.getBean(McpServer.class));
                        assertThat(toolCalls(beanSpans)).isEmpty();
                        SpanData call = toolCalls(ownSpans).getFirst();
                        // The application's McpTelemetry decides capture for itself: off in McpTelemetry.of.
                        assertThat(call.getAttributes().get(McpNames.GEN_AI_TOOL_CALL_ARGUMENTS)).isNull();
                    });
        }
    }

    /** Without either bean the server keeps the SDK's default, the global SDK an application installed. */
    @Test
    void withoutABeanTheServerRecordsThroughGlobalOpenTelemetry() {
        InMemorySpanExporter spans = InMemorySpanExporter.create();
        try (OpenTelemetrySdk sdk = sdk(spans)) {
            GlobalOpenTelemetry.set(sdk);
            runner().run(context -> {
                assertThat(context).doesNotHaveBean(McpTelemetry.class).doesNotHaveBean(OpenTelemetry.class);
                callHello(context.getBean(McpServer.class));
                assertThat(toolCalls(spans)).hasSize(1);
            });
        } finally {
            GlobalOpenTelemetry.resetForTest();
        }
    }
}
