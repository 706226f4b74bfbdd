package dev.warden.spring.boot;

import dev.warden.telemetry.McpTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Which {@link McpTelemetry} the server records with. Spring Boot configures OpenTelemetry as a bean
 * and never sets {@code GlobalOpenTelemetry}, so the SDK's default ({@link McpTelemetry#ofGlobal()})
 * would record nothing in a Boot application that traces everything else: the application's own
 * {@code McpTelemetry} bean, else its {@code OpenTelemetry} bean, else the SDK's default.
 */
final class ServerTelemetryChoice {

    private ServerTelemetryChoice() {
    }

    /** Empty: leave the server builder's default. */
    static Optional<McpTelemetry> of(ObjectProvider<McpTelemetry> own, ObjectProvider<OpenTelemetry> openTelemetry,
                                     WardenProperties.Telemetry properties) {
        McpTelemetry chosen = own.getIfUnique();
        if (chosen != null) {
            return Optional.of(chosen);
        }
        return Optional.ofNullable(openTelemetry.getIfUnique()).map(otel -> McpTelemetry.custom().openTelemetry(otel)
                .captureToolCalls(properties.captureToolCalls()).build());
    }
}
