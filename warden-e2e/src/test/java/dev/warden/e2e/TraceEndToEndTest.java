package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.testkit.otlp.OtlpReceiver;
import dev.warden.testkit.otlp.ReceivedMetric;
import dev.warden.testkit.otlp.ReceivedSpan;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * One trace across real processes: the official TypeScript SDK client traced with OpenTelemetry's
 * JavaScript SDK (traced-client.mjs), {@code warden gateway} and its upstream {@code warden demo}
 * (a server on Warden's SDK), each exporting OTLP to a receiver this test runs. The client's
 * context travels in {@code params._meta}; the spans link client → gateway SERVER → gateway CLIENT →
 * upstream SERVER. The demo's generate_report throws an exception naming a file, an internal host
 * and a credentialed URL: none of it may reach any span, while the code and the ref the client was
 * given are there.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TraceEndToEndTest {

    /** A hang guard: exports arrive within the batch delay set below. */
    static final Duration HANG_GUARD = Duration.ofSeconds(60);
    /** What generate_report's exception holds (DemoTools.generateReport) and no span may. */
    static final List<String> CANARIES = List.of("hunter2", "reports.corp.internal", "/var/lib/warden",
            "2026-Q3.csv", "Permission denied", "report writer crashed", "UncheckedIOException", "IOException");

    OtlpReceiver receiver;
    /** The upstream's data directory: its incidents, where the operator finds what it leaked. */
    java.nio.file.Path upstreamData;
    HttpGateway gateway;
    JsonNode ok;
    JsonNode failed;

    @BeforeAll
    void callThroughTheGateway() throws Exception {
        receiver = OtlpReceiver.start();
        upstreamData = java.nio.file.Files.createTempDirectory("warden-trace-upstream");
        // Spans leave each process within 100 ms of ending; metrics every half second.
        String otel = "{ OTEL_EXPORTER_OTLP_ENDPOINT: \"%s\", OTEL_BSP_SCHEDULE_DELAY: \"100\", WARDEN_NO_REBUILD: \"1\" }"
                .formatted(receiver.endpoint());
        gateway = HttpGateway.start("""
                http: { port: 0 }
                upstreams:
                  demo:
                    command: [%s, demo, --data-dir, %s]
                    env: %s
                """.formatted(Processes.LAUNCHER, upstreamData, otel), 1,
                Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint(), "OTEL_BSP_SCHEDULE_DELAY", "100",
                        "OTEL_METRIC_EXPORT_INTERVAL", "500", "WARDEN_NO_REBUILD", "1"));
        Processes.Result result = Processes.run(Processes.node("traced-client.mjs", gateway.url(), receiver.endpoint(),
                "search_catalog", "{\"query\":\"lamp\"}", "generate_report", "{\"quarter\":\"Q3\"}"));
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        JsonNode calls = Json.mapper().readTree(result.stdout()).path("calls");
        ok = calls.get(0);
        failed = calls.get(1);
        assertThat(ok.path("result").path("isError").asBoolean()).as(ok.toString()).isFalse();
        assertThat(failed.path("result").path("isError").asBoolean()).as(failed.toString()).isTrue();
    }

    @AfterAll
    void stop() throws Exception {
        if (gateway != null) {
            gateway.stop();
        }
        if (receiver != null) {
            receiver.close();
        }
    }

    /** The spans of one trace, once its four hops have all arrived. */
    List<ReceivedSpan> trace(JsonNode call) throws InterruptedException {
        String traceId = call.path("traceId").asString();
        Predicate<ReceivedSpan> inTrace = s -> s.traceId().equals(traceId);
        Predicate<List<ReceivedSpan>> complete = spans -> spans.stream().filter(inTrace)
                .anyMatch(s -> s.serviceName().equals("warden-demo") && s.kind().equals("SERVER"))
                && spans.stream().filter(inTrace).filter(s -> s.serviceName().equals("warden-gateway")).count() >= 2
                && spans.stream().filter(inTrace).anyMatch(s -> s.serviceName().equals("warden-e2e-client"));
        return receiver.awaitSpans(complete, HANG_GUARD).stream().filter(inTrace).toList();
    }

    static ReceivedSpan one(List<ReceivedSpan> spans, String service, String kind) {
        List<ReceivedSpan> found = spans.stream().filter(s -> s.serviceName().equals(service) && s.kind().equals(kind))
                .toList();
        assertThat(found).as(service + " " + kind + " in " + spans).hasSize(1);
        return found.getFirst();
    }

    @Test
    void oneTraceLinksTheClientTheGatewayAndTheUpstream() throws Exception {
        List<ReceivedSpan> spans = trace(ok);
        ReceivedSpan client = one(spans, "warden-e2e-client", "CLIENT");
        ReceivedSpan gatewayServer = one(spans, "warden-gateway", "SERVER");
        ReceivedSpan gatewayClient = one(spans, "warden-gateway", "CLIENT");
        ReceivedSpan upstream = one(spans, "warden-demo", "SERVER");

        assertThat(client.spanId()).isEqualTo(ok.path("spanId").asString());
        assertThat(client.parentSpanId()).isEmpty();
        assertThat(gatewayServer.isChildOf(client)).as("gateway SERVER under the client's span").isTrue();
        assertThat(gatewayClient.isChildOf(gatewayServer)).as("gateway CLIENT under its SERVER").isTrue();
        assertThat(upstream.isChildOf(gatewayClient)).as("upstream SERVER under the gateway's CLIENT").isTrue();

        for (ReceivedSpan span : List.of(client, gatewayServer, gatewayClient, upstream)) {
            assertThat(span.name()).as(span.serviceName()).isEqualTo("tools/call search_catalog");
            assertThat(span.attributes()).as(span.serviceName() + " " + span.kind())
                    .containsEntry("mcp.method.name", "tools/call")
                    .containsEntry("gen_ai.tool.name", "search_catalog")
                    .containsEntry("gen_ai.operation.name", "execute_tool")
                    .doesNotContainKey("error.type");
        }
        for (ReceivedSpan span : List.of(gatewayServer, gatewayClient, upstream)) {
            assertThat(span.attributes()).as(span.serviceName() + " " + span.kind())
                    .containsKeys("jsonrpc.request.id", "network.transport");
        }
        // The version each side negotiated. The gateway's CLIENT span does not carry its upstream
        // session's version yet (the conventions recommend it): not asserted there.
        for (ReceivedSpan span : List.of(client, gatewayServer, upstream)) {
            assertThat(span.attributes()).as(span.serviceName() + " " + span.kind())
                    .containsEntry("mcp.protocol.version", "2025-11-25");
        }
        assertThat(gatewayServer.attributes()).containsEntry("network.transport", "tcp").containsKey("mcp.session.id");
        assertThat(gatewayClient.attributes()).containsEntry("warden.upstream", "demo")
                .containsEntry("network.transport", "pipe");
        assertThat(upstream.attributes()).containsEntry("network.transport", "pipe");
    }

    @Test
    void aFailingCallCarriesTheCodeAndTheRefTheClientSawAndNoneOfTheLeak() throws Exception {
        String ref = failed.path("result").path("structuredContent").path("error").path("ref").asString();
        String code = failed.path("result").path("structuredContent").path("error").path("code").asString();
        assertThat(ref).startsWith("ref_");
        List<ReceivedSpan> spans = trace(failed);
        ReceivedSpan client = one(spans, "warden-e2e-client", "CLIENT");
        ReceivedSpan gatewayServer = one(spans, "warden-gateway", "SERVER");
        ReceivedSpan gatewayClient = one(spans, "warden-gateway", "CLIENT");
        ReceivedSpan upstream = one(spans, "warden-demo", "SERVER");
        assertThat(gatewayServer.isChildOf(client)).isTrue();
        assertThat(gatewayClient.isChildOf(gatewayServer)).isTrue();
        assertThat(upstream.isChildOf(gatewayClient)).isTrue();

        // What the client received, and the operator's handle on it, are on the gateway's answer.
        assertThat(gatewayServer.name()).isEqualTo("tools/call generate_report");
        assertThat(gatewayServer.attributes()).containsEntry("error.type", "tool_error")
                .containsEntry("warden.error.code", code).containsEntry("warden.ref", ref);
        assertThat(gatewayServer.statusCode()).isEqualTo("ERROR");
        // Each Warden hop names the failure by its code and a ref, never by the exception's text.
        for (ReceivedSpan span : List.of(gatewayClient, upstream)) {
            assertThat(span.attributes()).as(span.serviceName() + " " + span.kind())
                    .containsEntry("error.type", "tool_error").containsKeys("warden.error.code", "warden.ref");
        }

        // The upstream's ref, on both sides of the pipe, opens the upstream's incident: the leak is
        // there for the operator (all but the URL's password, which even the store redacts).
        Object upstreamRef = upstream.attribute("warden.ref").orElseThrow();
        assertThat(gatewayClient.attribute("warden.ref")).contains(upstreamRef);
        Processes.Result incident = Processes.run(List.of(Processes.LAUNCHER.toString(), "incidents", "show",
                upstreamRef.toString(), "--data-dir", upstreamData.toString()), Map.of("WARDEN_NO_REBUILD", "1"));
        assertThat(incident.exitCode()).as(incident.stderr()).isZero();
        assertThat(incident.stdout()).contains("reports.corp.internal", "/var/lib/warden", "Permission denied");

        // Not in this trace, nor in anything any process sent.
        List<ReceivedSpan> everything = receiver.spans();
        for (ReceivedSpan span : everything) {
            for (String canary : CANARIES) {
                assertThat(span.allText()).as(span.serviceName() + " " + span.kind() + " " + span.name())
                        .doesNotContain(canary);
            }
        }
    }

    @Test
    void theGatewayAndTheUpstreamRecordTheOperationDurations() throws Exception {
        Predicate<ReceivedMetric> gatewayServer = m -> m.serviceName().equals("warden-gateway")
                && m.name().equals("mcp.server.operation.duration");
        Predicate<ReceivedMetric> gatewayClient = m -> m.serviceName().equals("warden-gateway")
                && m.name().equals("mcp.client.operation.duration");
        List<ReceivedMetric> metrics = receiver.awaitMetrics(
                ms -> ms.stream().anyMatch(gatewayServer) && ms.stream().anyMatch(gatewayClient), HANG_GUARD);
        assertThat(metrics.stream().filter(gatewayServer).flatMap(m -> m.points().stream()))
                .anySatisfy(point -> assertThat(point).containsEntry("mcp.method.name", "tools/call")
                        .containsEntry("gen_ai.tool.name", "generate_report").containsEntry("error.type", "tool_error"));
    }
}
