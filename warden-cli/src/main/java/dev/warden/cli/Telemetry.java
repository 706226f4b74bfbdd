package dev.warden.cli;

import io.opentelemetry.api.OpenTelemetry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The OpenTelemetry SDK the serving commands ({@code gateway}, {@code wrap}, {@code demo}) install
 * when they start, configured by the standard {@code OTEL_*} variables (or {@code -Dotel.*}
 * properties) and exporting OTLP over HTTP, and flush when they end.
 *
 * <p>The rule: the SDK is installed only when the operator asked for an export, that is when one of
 * {@link #SWITCHES} is set (and {@code OTEL_SDK_DISABLED} is not {@code true}). A plain {@code warden
 * gateway} loads no OpenTelemetry class and sends nothing: OpenTelemetry's own default would be to
 * export to localhost:4318 and log a failure every few seconds where no collector runs. Once
 * installed, every other variable has OpenTelemetry's meaning, with three defaults of Warden's:
 * {@code service.name} is {@code warden-gateway}, {@code warden-wrap} or {@code warden-demo} unless
 * {@code OTEL_SERVICE_NAME} or {@code OTEL_RESOURCE_ATTRIBUTES} names one, and no logs are exported
 * ({@code OTEL_LOGS_EXPORTER=none}: Warden's logs go to stderr) unless that variable says otherwise,
 * and spans are exported in larger batches than OpenTelemetry's ({@link TelemetrySdk#batching}).
 * Libraries reach the SDK through {@code GlobalOpenTelemetry}; without it they get the API's no-op.
 */
final class Telemetry implements AutoCloseable {

    /** The variables of which any one, set, turns the export on (each also as its {@code otel.*} property). */
    static final List<String> SWITCHES = List.of("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
            "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "OTEL_TRACES_EXPORTER", "OTEL_METRICS_EXPORTER",
            "OTEL_LOGS_EXPORTER");

    private static final Telemetry NONE = new Telemetry(Optional.empty());

    private final Optional<TelemetrySdk.Started> sdk;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Telemetry(Optional<TelemetrySdk.Started> sdk) {
        this.sdk = sdk;
    }

    /** The service.name a command reports by default, when it is one that serves. */
    static Optional<String> serviceName(String command) {
        return switch (command) {
            case "gateway", "wrap", "demo" -> Optional.of("warden-" + command);
            default -> Optional.empty();
        };
    }

    /** The property name OpenTelemetry reads for an {@code OTEL_*} variable: {@code OTEL_A_B} is {@code otel.a.b}. */
    static String property(String variable) {
        return variable.toLowerCase(java.util.Locale.ROOT).replace('_', '.');
    }

    /** Whether these variables and properties ask for an export (the rule above). */
    static boolean wanted(Map<String, String> environment, Properties properties) {
        String disabled = setting("OTEL_SDK_DISABLED", environment, properties).orElse("false");
        return !"true".equalsIgnoreCase(disabled.strip())
                && SWITCHES.stream().anyMatch(v -> setting(v, environment, properties).isPresent());
    }

    /** A setting as OpenTelemetry reads it: the system property first, then the variable; blank is unset. */
    static Optional<String> setting(String variable, Map<String, String> environment, Properties properties) {
        return Optional.ofNullable(properties.getProperty(property(variable)))
                .or(() -> Optional.ofNullable(environment.get(variable)))
                .filter(v -> !v.isBlank());
    }

    /**
     * Installs the SDK for {@code command} when the rule says so (else a no-op), as the global
     * OpenTelemetry when {@code global}; its flush runs on {@link #close} or at the JVM's exit,
     * whichever comes first (a SIGTERM to {@code wrap} ends the JVM without returning).
     *
     * @throws IllegalArgumentException when the OTEL_* settings are wrong (an unknown exporter, a bad
     *         URL); the message says which
     */
    static Telemetry install(String command, Map<String, String> environment, Properties properties, boolean global) {
        Optional<String> service = serviceName(command);
        if (service.isEmpty() || !wanted(environment, properties)) {
            return NONE;
        }
        // Loaded only here: a run without an export loads no OpenTelemetry SDK class.
        Telemetry telemetry = new Telemetry(Optional.of(TelemetrySdk.start(service.get(), environment, global)));
        Runtime.getRuntime().addShutdownHook(new Thread(telemetry::close, "warden-telemetry-flush"));
        return telemetry;
    }

    /** The SDK installed, as the API sees it, if one was. */
    Optional<OpenTelemetry> openTelemetry() {
        return sdk.map(TelemetrySdk.Started::openTelemetry);
    }

    /** Flushes what is buffered and stops the exporters (bounded); once, whoever calls first. */
    @Override
    public void close() {
        if (sdk.isEmpty() || !closed.compareAndSet(false, true)) {
            return;
        }
        try {
            sdk.get().flush().close();
        } catch (Exception e) {
            System.err.println("warden: OpenTelemetry: the last export failed: " + e);
        }
    }
}
