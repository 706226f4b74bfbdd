package dev.warden.cli;

import com.sun.net.httpserver.HttpServer;
import dev.warden.gateway.GatewayConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * {@code GET /metrics} in Prometheus' text format, on its own port (loopback by default), apart
 * from the MCP endpoint. Uses the JDK's HTTP server: one small read-only page needs nothing more.
 */
final class MetricsEndpoint implements AutoCloseable {

    private final Optional<HttpServer> server;

    private MetricsEndpoint(Optional<HttpServer> server) {
        this.server = server;
    }

    static MetricsEndpoint start(Optional<GatewayConfig.Metrics> config, PrometheusMeterRegistry registry)
            throws IOException {
        if (config.isEmpty()) {
            return new MetricsEndpoint(Optional.empty());
        }
        HttpServer http = HttpServer.create(new InetSocketAddress(config.get().host(), config.get().port()), 16);
        http.createContext("/metrics", exchange -> {
            try (exchange) {
                if (!"GET".equals(exchange.getRequestMethod())) {
                    exchange.sendResponseHeaders(405, -1);
                    return;
                }
                byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        });
        http.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        http.start();
        System.err.println("warden gateway: metrics at http://" + config.get().host() + ":"
                + http.getAddress().getPort() + "/metrics");
        return new MetricsEndpoint(Optional.of(http));
    }

    @Override
    public void close() {
        server.ifPresent(s -> s.stop(0));
    }
}
