package dev.warden.cli;

import com.sun.net.httpserver.HttpServer;
import dev.warden.gateway.config.GatewayConfig;
import dev.warden.http.server.HostPolicy;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;
import java.util.Set;

/**
 * {@code GET /metrics} in Prometheus' text format, on its own port (loopback by default), apart
 * from the MCP endpoint. Uses the JDK's HTTP server: one small read-only page needs nothing more.
 * The MCP endpoint's Host and Origin policy applies (a DNS-rebinding page could read it otherwise):
 * the loopback names, or {@code http.allowedHosts} when configured; a host that is not loopback
 * needs them, and a credential of its own ({@code metrics.token}, presented as a bearer token and
 * compared in constant time), since the figures tell what the gateway serves and to whom.
 */
final class MetricsEndpoint implements AutoCloseable {

    private final Optional<HttpServer> server;

    private MetricsEndpoint(Optional<HttpServer> server) {
        this.server = server;
    }

    /** @param allowedHosts the names clients may use to reach the gateway ({@code http.allowedHosts}) */
    static MetricsEndpoint start(Optional<GatewayConfig.Metrics> config, Set<String> allowedHosts,
                                 PrometheusMeterRegistry registry) throws IOException {
        return start(config, allowedHosts, registry, false);
    }

    /** @param insecure serve a host that is not loopback without a token ({@code --insecure-no-auth}) */
    static MetricsEndpoint start(Optional<GatewayConfig.Metrics> config, Set<String> allowedHosts,
                                 PrometheusMeterRegistry registry, boolean insecure) throws IOException {
        if (config.isEmpty()) {
            return new MetricsEndpoint(Optional.empty());
        }
        if (allowedHosts.isEmpty() && !HostPolicy.isLoopback(config.get().host())) {
            throw new IllegalStateException("metrics.host " + config.get().host() + " is not a loopback address: "
                    + "set http.allowedHosts to the names Prometheus uses to reach it");
        }
        if (config.get().token().isEmpty() && !insecure && !HostPolicy.isLoopback(config.get().host())) {
            throw new IllegalStateException("metrics.host " + config.get().host() + " is not a loopback address: "
                    + "set metrics.token, the bearer token Prometheus presents");
        }
        Optional<byte[]> token = config.get().token().map(t -> digest(t.value()));
        HostPolicy hosts = allowedHosts.isEmpty() ? HostPolicy.loopback() : new HostPolicy(allowedHosts);
        HttpServer http = HttpServer.create(new InetSocketAddress(config.get().host(), config.get().port()), 16);
        http.createContext("/metrics", exchange -> {
            try (exchange) {
                var headers = exchange.getRequestHeaders();
                if (!hosts.allows(Optional.ofNullable(headers.getFirst("Host")),
                        Optional.ofNullable(headers.getFirst("Origin")))) {
                    exchange.sendResponseHeaders(403, -1);
                    return;
                }
                if (token.isPresent() && !presents(headers.getFirst("Authorization"), token.get())) {
                    exchange.getResponseHeaders().add("WWW-Authenticate", "Bearer");
                    exchange.sendResponseHeaders(401, -1);
                    return;
                }
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

    /** Whether the request's Authorization header is the token: digests compared, so in constant time. */
    private static boolean presents(String authorization, byte[] expected) {
        String presented = authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
                ? authorization.substring(7).trim() : "";
        return MessageDigest.isEqual(digest(presented), expected);
    }

    private static byte[] digest(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** The bound port (when serving). */
    java.util.OptionalInt port() {
        return server.map(s -> java.util.OptionalInt.of(s.getAddress().getPort())).orElse(java.util.OptionalInt.empty());
    }

    @Override
    public void close() {
        server.ifPresent(s -> s.stop(0));
    }
}
