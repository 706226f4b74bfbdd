package dev.warden.cli;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdkBuilder;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException;
import io.opentelemetry.sdk.resources.Resource;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * The OpenTelemetry SDK built by its autoconfiguration from the OTEL_* settings (see {@link
 * Telemetry} for when and with which defaults). A class of its own so that the SDK's classes load
 * only when an export was asked for.
 */
final class TelemetrySdk {

    /** How long the last flush may take at exit: the exporters' own default timeout. */
    private static final long FLUSH_SECONDS = 10;
    private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");
    private static final String BATCH_SIZE = "otel.bsp.max.export.batch.size";
    private static final String QUEUE_SIZE = "otel.bsp.max.queue.size";
    private static final int BATCH = 8192;
    private static final int QUEUE = 32768;
    /** Held here: java.util.logging keeps its loggers weakly, and with them the handler set on them. */
    static final Logger SDK_LOGS = Logger.getLogger("io.opentelemetry");

    private TelemetrySdk() {
    }

    /** The SDK as the API sees it, and its flush. */
    record Started(OpenTelemetry openTelemetry, AutoCloseable flush) {
    }

    static Started start(String serviceName, Map<String, String> environment, boolean global) {
        routeSdkLogs();
        AutoConfiguredOpenTelemetrySdkBuilder builder = AutoConfiguredOpenTelemetrySdk.builder()
                // Warden's defaults: the variables and properties override them. OTLP over HTTP
                // (protobuf), the specification's default, where the Java SDK's is gRPC, whose sender
                // Warden does not ship.
                .addPropertiesSupplier(() -> Map.of("otel.logs.exporter", "none",
                        "otel.exporter.otlp.protocol", "http/protobuf"))
                // The variables as given (the process's own in production, where the SDK reads the same):
                // a system property still wins over a variable, as OpenTelemetry has it.
                .addPropertiesCustomizer(config -> fromEnvironment(environment, config))
                .addPropertiesCustomizer(TelemetrySdk::batching)
                .addResourceCustomizer((resource, config) -> named(resource, config, serviceName))
                // Telemetry closes the SDK itself, once, from main or its own hook.
                .disableShutdownHook();
        if (global) {
            builder.setResultAsGlobal();
        }
        OpenTelemetrySdk sdk;
        try {
            sdk = builder.build().getOpenTelemetrySdk();
        } catch (ConfigurationException e) {
            throw new IllegalArgumentException("OpenTelemetry configuration (OTEL_* variables): " + explained(reason(e)), e);
        }
        return new Started(sdk, () -> sdk.shutdown().join(FLUSH_SECONDS, TimeUnit.SECONDS));
    }

    /**
     * Sends what the SDK logs through java.util.logging (a failed export, an unknown setting) to
     * Warden's logs, at their level and in their format (one JSON object a line with
     * WARDEN_LOG_FORMAT=json), instead of the JDK's own multi-line text on stderr. Only the SDK's
     * loggers: nothing else in the process logs through java.util.logging.
     */
    static void routeSdkLogs() {
        synchronized (SDK_LOGS) {
            if (SDK_LOGS.getUseParentHandlers()) {
                SDK_LOGS.setUseParentHandlers(false);
                SDK_LOGS.addHandler(new SLF4JBridgeHandler());
            }
        }
    }

    /**
     * The SDK's reason, or what to do instead where it names a remedy an operator of the command
     * cannot take: adding a gRPC sender to the distribution.
     */
    static String explained(String reason) {
        return reason.contains("GrpcSenderProvider")
                ? "OTLP over gRPC is not shipped with warden: set OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf (the"
                        + " default) and the backend's OTLP/HTTP endpoint (port 4318 by convention)"
                : reason;
    }

    /** The innermost message: the SDK wraps the one that names the setting in "Unexpected configuration error". */
    private static String reason(Throwable e) {
        String reason = e.getMessage();
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null) {
                reason = cause.getMessage();
            }
        }
        return reason;
    }

    private static Map<String, String> fromEnvironment(Map<String, String> environment, ConfigProperties config) {
        Map<String, String> properties = new HashMap<>();
        environment.forEach((variable, value) -> {
            String property = Telemetry.property(variable);
            if (variable.startsWith("OTEL_") && System.getProperty(property) == null) {
                properties.put(property, value);
            }
        });
        return properties;
    }

    /**
     * Warden's batching of spans, where the operator set none: exports of up to {@value #BATCH} spans
     * (the OpenTelemetry Collector's own batch size) from a queue of {@value #QUEUE}, sixteen times
     * OpenTelemetry's defaults (512 and 2048). Each export costs the gateway and the collector a fixed
     * part (an HTTP exchange whose code, run a few times a second, stays interpreted or barely
     * compiled) besides its spans: in two runs of scripts/trace-overhead the traced gateway served
     * 6.0% and 8.1% fewer calls than the untraced one at 2048, 2.6% and 4.9% at 8192
     * (docs/benchmarks.md). The queue keeps room for the spans made while one export is sent; when
     * the collector is down it holds up to {@value #QUEUE} spans, tens of MB.
     * An export still goes out every {@code OTEL_BSP_SCHEDULE_DELAY} (5 s) when fewer spans came.
     * Whatever the operator set stays; the other value is fitted to it, since the SDK would clamp a
     * batch larger than its queue with a warning at start: a queue made smaller caps the batch, and
     * a batch made larger than {@value #QUEUE} gets a queue of its size.
     */
    static Map<String, String> batching(ConfigProperties config) {
        Map<String, String> defaults = new HashMap<>();
        Integer queue = config.getInt(QUEUE_SIZE);
        Integer batch = config.getInt(BATCH_SIZE);
        if (queue == null) {
            defaults.put(QUEUE_SIZE, Integer.toString(batch == null ? QUEUE : Math.max(QUEUE, batch)));
        }
        if (batch == null) {
            defaults.put(BATCH_SIZE, Integer.toString(Math.min(BATCH, queue == null ? QUEUE : queue)));
        }
        return defaults;
    }

    /** The command's service.name, unless the operator named the service. */
    private static Resource named(Resource resource, ConfigProperties config, String serviceName) {
        boolean named = config.getString("otel.service.name") != null
                || config.getMap("otel.resource.attributes").containsKey("service.name");
        return named ? resource : resource.merge(Resource.create(Attributes.of(SERVICE_NAME, serviceName)));
    }
}
