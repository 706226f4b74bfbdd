package dev.warden.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ToolCallResult;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.spring.boot.WardenHttpEndpoint;
import dev.warden.telemetry.McpNames;
import dev.warden.telemetry.McpTelemetry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.ActiveProfiles;

/**
 * The sample with Boot's own OpenTelemetry SDK (spring-boot-starter-opentelemetry) and MCP on the
 * application's Jetty: a tool called over HTTP by Warden's client is a SERVER span of that SDK, a
 * failing one holds the code and ref the client received and not the exception's message, and the
 * W3C headers of the HTTP request parent the span when {@code _meta} carries no context.
 */
@SpringBootTest(classes = {SampleApplication.class, SampleTracesTest.Exporting.class},
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("traces") // application-traces.properties: docs/guides/spring-boot.md quotes it
class SampleTracesTest {

    /** The W3C context a caller's HTTP request carries (its trace and span ids are the test's own). */
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PARENT_ID = "00f067aa0ba902b7";

    /** Boot adds every SpanProcessor bean to its SdkTracerProvider; this one exports each span as it ends. */
    @TestConfiguration(proxyBeanMethods = false)
    static class Exporting {
        static final InMemorySpanExporter SPANS = InMemorySpanExporter.create();

        @Bean
        SpanProcessor inMemorySpans() {
            return SimpleSpanProcessor.create(SPANS);
        }
    }

    @Autowired
    WardenHttpEndpoint endpoint;

    @BeforeEach
    void forget() {
        Exporting.SPANS.reset();
    }

    private McpClient client(Map<String, String> headers, ProtocolVersion version) {
        URI url = endpoint.url().orElseThrow();
        // No telemetry of its own: the client puts no context in _meta, so only the headers carry one.
        return McpClient.builder("traces-test", "1").protocolVersion(version).telemetry(McpTelemetry.noop())
                .connect(McpClient.http(url, headers));
    }

    private static SpanData serverSpan(String name) {
        List<SpanData> found = Exporting.SPANS.getFinishedSpanItems().stream()
                .filter(s -> s.getName().equals(name) && s.getKind() == SpanKind.SERVER).toList();
        assertThat(found).hasSize(1);
        return found.getFirst();
    }

    @Test
    void aToolCallIsAServerSpanOfTheApplicationsSdk() {
        try (McpClient client = client(Map.of(), ProtocolVersion.latestSessionBased())) {
            ToolCallResult result = client.callTool("cancel_order", Json.object().put("id", "o-1"));
            assertThat(result.isError()).isFalse();
        }
        SpanData span = serverSpan("tools/call cancel_order");
        assertThat(span.getAttributes().get(McpNames.MCP_METHOD_NAME)).isEqualTo("tools/call");
        assertThat(span.getAttributes().get(McpNames.GEN_AI_TOOL_NAME)).isEqualTo("cancel_order");
        assertThat(span.getAttributes().get(McpNames.NETWORK_TRANSPORT)).isEqualTo("tcp");
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        // warden.mcp.telemetry.capture-tool-calls=true in the profile.
        assertThat(span.getAttributes().get(McpNames.GEN_AI_TOOL_CALL_ARGUMENTS)).contains("o-1");
        assertThat(span.getAttributes().get(McpNames.GEN_AI_TOOL_CALL_RESULT)).contains("Cancelled.");
    }

    @Test
    void aFailingToolsSpanHoldsTheCodeAndRefTheClientGotAndNotTheExceptionsMessage() {
        ToolCallResult result;
        try (McpClient client = client(Map.of(), ProtocolVersion.latestSessionBased())) {
            // o-3: the sample's store throws "Connection to db.internal:5432 refused (user=orders_admin)".
            result = client.callTool("cancel_order", Json.object().put("id", "o-3"));
        }
        assertThat(result.isError()).isTrue();
        String code = result.structuredContent().orElseThrow().path("error").path("code").asString();
        String ref = result.structuredContent().orElseThrow().path("error").path("ref").asString();
        assertThat(code).isEqualTo("INTERNAL_ERROR");
        assertThat(ref).startsWith("ref_");

        SpanData span = serverSpan("tools/call cancel_order");
        assertThat(span.getAttributes().get(McpNames.WARDEN_ERROR_CODE)).isEqualTo(code);
        assertThat(span.getAttributes().get(McpNames.WARDEN_REF)).isEqualTo(ref);
        assertThat(span.getAttributes().get(McpNames.ERROR_TYPE)).isEqualTo("tool_error");
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(Exporting.SPANS.getFinishedSpanItems()).allSatisfy(s -> {
            assertThat(s.getName()).doesNotContain("db.internal");
            assertThat(s.getStatus().getDescription()).doesNotContain("db.internal").doesNotContain("orders_admin");
            assertThat(s.getAttributes().asMap().values()).allSatisfy(v -> assertThat(String.valueOf(v))
                    .doesNotContain("db.internal").doesNotContain("orders_admin"));
            assertThat(s.getEvents()).allSatisfy(e -> {
                assertThat(e.getName()).doesNotContain("db.internal");
                assertThat(e.getAttributes().asMap().values()).allSatisfy(v -> assertThat(String.valueOf(v))
                        .doesNotContain("db.internal").doesNotContain("orders_admin"));
            });
        });
    }

    /** A stateless (2026-07-28) request: one POST, whose traceparent header is the span's parent. */
    @Test
    void theHttpRequestsTraceparentParentsTheSpanWhenMetaHasNone() {
        try (McpClient client = client(Map.of("traceparent", "00-" + TRACE_ID + "-" + PARENT_ID + "-01"),
                ProtocolVersion.V2026_07_28)) {
            client.callTool("cancel_order", Json.object().put("id", "o-9"));
        }
        SpanData span = serverSpan("tools/call cancel_order");
        assertThat(span.getTraceId()).isEqualTo(TRACE_ID);
        assertThat(span.getParentSpanId()).isEqualTo(PARENT_ID);
    }
}
