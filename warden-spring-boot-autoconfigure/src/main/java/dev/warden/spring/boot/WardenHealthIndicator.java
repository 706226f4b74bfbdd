package dev.warden.spring.boot;

import dev.warden.core.incident.IncidentSink;
import java.util.Optional;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Actuator's {@code warden} component: up while the incident sink records (a full or read-only disk
 * turns it down: refs would point at nothing) and, when served over HTTP, while the endpoint serves.
 */
final class WardenHealthIndicator implements HealthIndicator {

    private final IncidentSink incidents;
    private final Optional<WardenHttpEndpoint> http;

    WardenHealthIndicator(IncidentSink incidents, Optional<WardenHttpEndpoint> http) {
        this.incidents = incidents;
        this.http = http;
    }

    @Override
    public Health health() {
        boolean recording = incidents.recording();
        boolean serving = http.map(WardenHttpEndpoint::isRunning).orElse(true);
        Health.Builder health = recording && serving ? Health.up() : Health.down();
        health.withDetail("incidents", recording ? "recording" : "not recording");
        http.ifPresent(endpoint -> health.withDetail("http",
                endpoint.url().map(Object::toString).orElse("not serving")));
        return health.build();
    }
}
