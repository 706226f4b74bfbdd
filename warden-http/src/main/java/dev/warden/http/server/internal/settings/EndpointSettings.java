package dev.warden.http.server.internal.settings;

import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.transport.Transport;
import dev.warden.http.server.internal.request.AuthGate;
import dev.warden.http.server.internal.request.Gate;
import dev.warden.http.server.internal.seal.SessionSeal;
import dev.warden.telemetry.McpTelemetry;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What the MCP endpoint needs from the server's configuration; {@code seal}, when present, makes
 * sessions portable: their ids sealed with what another replica needs to restore them; {@code
 * replicas} carries what a portable session changes, and its answers, to the replicas holding it;
 * {@code telemetry} makes the spans of the POSTs refused before a session sees them.
 */
public record EndpointSettings(String path, HostCheck hosts, int maxBodyBytes, Duration retry, ResumeWindow resumeWindow,
                               Duration sessionIdleTimeout, Consumer<Transport> onSession, ErrorBoundary boundary,
                               ClientLimits limits, InstantSource clock, AuthGate auth,
                               Gate gate, Optional<SessionSeal> seal,
                               dev.warden.core.cluster.ReplicaBus replicas, McpTelemetry telemetry) {

    /**
     * Whether a request's Host and Origin headers may reach the endpoint: the server's
     * {@code HostPolicy::allows}, passed as a function so that this package does not depend on the
     * API package, which depends on it.
     */
    @FunctionalInterface
    public interface HostCheck {
        boolean allows(Optional<String> host, Optional<String> origin);
    }
}
