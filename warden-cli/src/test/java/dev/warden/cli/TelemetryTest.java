package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.testkit.otlp.OtlpReceiver;
import dev.warden.testkit.otlp.ReceivedMetric;
import dev.warden.testkit.otlp.ReceivedSpan;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The SDK the serving commands install: when, with which service.name, and flushed when they end. */
class TelemetryTest {

    private static final Duration HANG_GUARD = Duration.ofSeconds(30);

    @Test
    void nothingIsInstalledUnlessAnExportIsAskedFor() {
        Properties none = new Properties();
        assertThat(Telemetry.wanted(Map.of(), none)).isFalse();
        assertThat(Telemetry.wanted(Map.of("OTEL_SERVICE_NAME", "mine", "OTEL_EXPORTER_OTLP_HEADERS", "a=b"), none))
                .isFalse();
        assertThat(Telemetry.wanted(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", " "), none)).isFalse();
        for (String variable : Telemetry.SWITCHES) {
            assertThat(Telemetry.wanted(Map.of(variable, "x"), none)).as(variable).isTrue();
        }
        assertThat(Telemetry.wanted(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318",
                "OTEL_SDK_DISABLED", "true"), none)).isFalse();
        Properties property = new Properties();
        property.setProperty("otel.exporter.otlp.endpoint", "http://127.0.0.1:4318");
        assertThat(Telemetry.wanted(Map.of(), property)).isTrue();
        assertThat(Telemetry.install("gateway", Map.of(), none, false).openTelemetry()).isEmpty();
        // Commands that do not serve never install it.
        assertThat(Telemetry.install("incidents", Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1"), none,
                false).openTelemetry()).isEmpty();
    }

    @Test
    void exportsSpansAndMetricsOverOtlpAndFlushesThemOnClose() throws Exception {
        try (OtlpReceiver receiver = OtlpReceiver.start()) {
            // Batches that would wait a minute: only the flush on close sends them.
            Telemetry telemetry = Telemetry.install("gateway", environment(receiver,
                    "OTEL_BSP_SCHEDULE_DELAY", "60000", "OTEL_METRIC_EXPORT_INTERVAL", "60000"), new Properties(), false);
            OpenTelemetry otel = telemetry.openTelemetry().orElseThrow();
            otel.getTracer("test").spanBuilder("tools/call echo").startSpan().end();
            otel.getMeter("test").counterBuilder("warden.test.calls").build().add(1);
            telemetry.close();
            telemetry.close(); // once only: the exit hook after main's close does nothing

            List<ReceivedSpan> spans = receiver.awaitSpans(s -> !s.isEmpty(), HANG_GUARD);
            assertThat(spans).singleElement().satisfies(span -> {
                assertThat(span.name()).isEqualTo("tools/call echo");
                assertThat(span.serviceName()).isEqualTo("warden-gateway");
            });
            assertThat(receiver.awaitMetrics(m -> !m.isEmpty(), HANG_GUARD)).extracting(ReceivedMetric::name)
                    .contains("warden.test.calls");
        }
    }

    @Test
    void sampledByRatioACallersSampledTraceIsStillFollowed() throws Exception {
        try (OtlpReceiver receiver = OtlpReceiver.start()) {
            // The observe guide's lever, at a ratio of 0 so that no trace of the gateway's own starts.
            Telemetry telemetry = Telemetry.install("gateway", environment(receiver,
                    "OTEL_TRACES_SAMPLER", "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG", "0"),
                    new Properties(), false);
            OpenTelemetry otel = telemetry.openTelemetry().orElseThrow();
            Tracer tracer = otel.getTracer("test");
            tracer.spanBuilder("tools/call own").startSpan().end();
            tracer.spanBuilder("tools/call sampled").setParent(callers(true)).startSpan().end();
            tracer.spanBuilder("tools/call unsampled").setParent(callers(false)).startSpan().end();
            telemetry.close();

            assertThat(receiver.awaitSpans(s -> !s.isEmpty(), HANG_GUARD)).extracting(ReceivedSpan::name)
                    .containsExactly("tools/call sampled");
        }
    }

    /** The context of a caller's remote span, sampled or not (a W3C {@code traceparent}'s flag). */
    private static Context callers(boolean sampled) {
        return Context.root().with(Span.wrap(SpanContext.createFromRemoteParent("0af7651916cd43dd8448eb211c80319c",
                "b7ad6b7169203331", sampled ? TraceFlags.getSampled() : TraceFlags.getDefault(), TraceState.getDefault())));
    }

    @Test
    void spansGoOutInExportsOf8192UnlessTheOperatorSetsTheBatching() throws Exception {
        assertThat(exportsOf(8300)).containsExactly(8192, 108);
        assertThat(exportsOf(600, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "512")).containsExactly(512, 88);
        assertThat(exportsOf(250, "OTEL_BSP_MAX_QUEUE_SIZE", "300", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "100"))
                .containsExactly(100, 100, 50);
    }

    @Test
    void aBatchingSettingGivenAsASystemPropertyWinsOverWardensDefault() throws Exception {
        // The SDK reads the JVM's own system properties.
        System.setProperty("otel.bsp.max.export.batch.size", "100");
        try {
            assertThat(exportsOf(250)).containsExactly(100, 100, 50);
        } finally {
            System.clearProperty("otel.bsp.max.export.batch.size");
        }
    }

    @Test
    void warden_s_other_batching_value_is_fitted_to_the_one_the_operator_set() {
        // The SDK would clamp a batch over its queue, with a warning at start.
        assertThat(TelemetrySdk.batching(config("otel.bsp.max.queue.size", "300")))
                .isEqualTo(Map.of("otel.bsp.max.export.batch.size", "300"));
        assertThat(TelemetrySdk.batching(config("otel.bsp.max.export.batch.size", "40000")))
                .isEqualTo(Map.of("otel.bsp.max.queue.size", "40000"));
        assertThat(TelemetrySdk.batching(config("otel.bsp.max.export.batch.size", "100")))
                .isEqualTo(Map.of("otel.bsp.max.queue.size", "32768"));
        assertThat(TelemetrySdk.batching(config("otel.bsp.max.queue.size", "300", "otel.bsp.max.export.batch.size", "100")))
                .isEmpty();
    }

    private static ConfigProperties config(String... keysAndValues) {
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return DefaultConfigProperties.createFromMap(map);
    }

    @Test
    void theServiceIsNamedForTheCommandUnlessTheOperatorNamedIt() throws Exception {
        assertThat(serviceOf("wrap")).isEqualTo("warden-wrap");
        assertThat(serviceOf("demo")).isEqualTo("warden-demo");
        assertThat(serviceOf("gateway", "OTEL_SERVICE_NAME", "edge-gateway")).isEqualTo("edge-gateway");
        assertThat(serviceOf("gateway", "OTEL_RESOURCE_ATTRIBUTES", "service.name=from-resource,team=x"))
                .isEqualTo("from-resource");
    }

    @Test
    void aWrongSettingIsNamedAtStart() {
        assertThatThrownBy(() -> Telemetry.install("gateway", Map.of("OTEL_TRACES_EXPORTER", "no-such-exporter"),
                new Properties(), false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("OTEL_")
                .hasMessageContaining("no-such-exporter");
    }

    @Test
    void grpcIsRefusedWithTheProtocolToUseInstead() {
        assertThatThrownBy(() -> Telemetry.install("gateway", Map.of("OTEL_EXPORTER_OTLP_ENDPOINT",
                "http://127.0.0.1:4317", "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"), new Properties(), false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf")
                .hasMessageNotContaining("add dependency");
    }

    private static String serviceOf(String command, String... more) throws Exception {
        try (OtlpReceiver receiver = OtlpReceiver.start()) {
            Telemetry telemetry = Telemetry.install(command, environment(receiver, more), new Properties(), false);
            telemetry.openTelemetry().orElseThrow().getTracer("test").spanBuilder("initialize").startSpan().end();
            telemetry.close();
            return receiver.awaitSpans(s -> !s.isEmpty(), HANG_GUARD).getFirst().serviceName();
        }
    }

    /** How many spans each export held when {@code spans} spans end and the command closes. */
    private static List<Integer> exportsOf(int spans, String... more) throws Exception {
        try (OtlpReceiver receiver = OtlpReceiver.start()) {
            String[] settings = new String[more.length + 2];
            // No export on a timer: only full batches and the flush on close.
            settings[0] = "OTEL_BSP_SCHEDULE_DELAY";
            settings[1] = "600000";
            System.arraycopy(more, 0, settings, 2, more.length);
            Telemetry telemetry = Telemetry.install("gateway", environment(receiver, settings), new Properties(), false);
            var tracer = telemetry.openTelemetry().orElseThrow().getTracer("test");
            for (int i = 0; i < spans; i++) {
                tracer.spanBuilder("tools/call echo").startSpan().end();
            }
            telemetry.close();
            receiver.awaitSpans(s -> s.size() >= spans, HANG_GUARD);
            return receiver.spansPerExport();
        }
    }

    private static Map<String, String> environment(OtlpReceiver receiver, String... more) {
        Map<String, String> environment = new HashMap<>(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint()));
        for (int i = 0; i < more.length; i += 2) {
            environment.put(more[i], more[i + 1]);
        }
        return environment;
    }
}
