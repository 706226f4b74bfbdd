package dev.warden.cli;

import dev.warden.http.server.McpHttpServer;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.ToLongFunction;

/** The HTTP server's sessions and refusals in the gateway's metrics registry. */
final class HttpMetrics {

    private HttpMetrics() {
    }

    static void register(MeterRegistry registry, McpHttpServer server) {
        Gauge.builder("warden_http_sessions", server, McpHttpServer::sessionCount)
                .description("Streamable HTTP sessions open").register(registry);
        counter(registry, server, "warden_http_sessions_opened", "Sessions opened", McpHttpServer.Stats::sessionsOpened);
        counter(registry, server, "warden_http_sessions_evicted", "Idle sessions closed to make room at a cap",
                McpHttpServer.Stats::sessionsEvicted);
        counter(registry, server, "warden_http_sessions_expired", "Sessions closed after the idle timeout",
                McpHttpServer.Stats::sessionsExpired);
        counter(registry, server, "warden_http_sessions_refused", "Initializes refused: a cap reached, no session idle",
                McpHttpServer.Stats::sessionsRefused);
        counter(registry, server, "warden_http_streams_cut", "Event streams cut because their client stopped reading",
                McpHttpServer.Stats::streamsCut);
        counter(registry, server, "warden_http_notifications_dropped",
                "Log and progress notifications dropped for a client reading its stream slower than they came",
                McpHttpServer.Stats::notificationsDropped);
        counter(registry, server, "warden_http_requests_refused",
                "POSTs refused in a session: a duplicate id, too many in flight, a batch", McpHttpServer.Stats::requestsRefused);
    }

    private static void counter(MeterRegistry registry, McpHttpServer server, String name, String description,
                                ToLongFunction<McpHttpServer.Stats> value) {
        FunctionCounter.builder(name, server, s -> value.applyAsLong(s.stats())).description(description)
                .register(registry);
    }
}
