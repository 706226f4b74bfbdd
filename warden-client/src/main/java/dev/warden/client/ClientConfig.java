package dev.warden.client;

import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.mcp.Implementation;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.session.NotificationHandler;
import dev.warden.telemetry.McpTelemetry;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The client's configuration as it was at {@code connect}: the builder may change afterwards, every
 * reconnect uses this. The handler maps keep the order they were set in (it is the order of the
 * capabilities declared).
 */
record ClientConfig(Implementation info, Duration requestTimeout, ReconnectPolicy reconnect,
                    ProtocolVersion protocolVersion, Map<String, ClientRequestHandler> handlers,
                    ErrorBoundary boundary, Map<String, ClientRequestHandler> undeclared,
                    Optional<NotificationHandler> notifications, Pause pause, McpTelemetry telemetry,
                    boolean traceHeadersFromMeta, McpTelemetry sessionTelemetry) {

    ClientConfig {
        handlers = Collections.unmodifiableMap(new LinkedHashMap<>(handlers));
        undeclared = Collections.unmodifiableMap(new LinkedHashMap<>(undeclared));
    }

    /** Waits between reconnection attempts (tests pass one that records instead of sleeping). */
    @FunctionalInterface
    interface Pause {
        void pause(Duration duration) throws InterruptedException;
    }

    /** The handler for a server's request or input request: the declared one, else the undeclared one. */
    Optional<ClientRequestHandler> handler(String method) {
        return Optional.ofNullable(handlers.getOrDefault(method, undeclared.get(method)));
    }
}
