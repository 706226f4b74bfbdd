package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.identity.PresentedToken;
import dev.warden.gateway.config.GatewayConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code /metrics} obeys the MCP endpoint's Host and Origin policy, and needs its own credential beyond loopback. */
class MetricsEndpointTest {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    @Test
    void aLoopbackHostIsServed() throws Exception {
        try (MetricsEndpoint metrics = loopback()) {
            int port = metrics.port().orElseThrow();
            assertThat(statusLine(port, "localhost:" + port, Optional.empty())).contains(" 200 ");
        }
    }

    @Test
    void aForeignHostIsRefused403() throws Exception {
        try (MetricsEndpoint metrics = loopback()) {
            int port = metrics.port().orElseThrow();
            assertThat(statusLine(port, "rebound.example.com:" + port, Optional.empty())).contains(" 403 ");
        }
    }

    @Test
    void aForeignOriginIsRefused403() throws Exception {
        try (MetricsEndpoint metrics = loopback()) {
            int port = metrics.port().orElseThrow();
            assertThat(statusLine(port, "localhost:" + port, Optional.of("http://localhost:1"))).contains(" 403 ");
        }
    }

    @Test
    void aHostThatIsNotLoopbackNeedsAllowedHosts() {
        assertThatThrownBy(() -> MetricsEndpoint.start(Optional.of(new GatewayConfig.Metrics("0.0.0.0", 0)), Set.of(),
                registry)).isInstanceOf(IllegalStateException.class).hasMessageContaining("allowedHosts");
    }

    @Test
    void aHostThatIsNotLoopbackNeedsAToken() {
        assertThatThrownBy(() -> MetricsEndpoint.start(Optional.of(new GatewayConfig.Metrics("0.0.0.0", 0)),
                Set.of("metrics.example"), registry)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("metrics.token");
    }

    @Test
    void withATokenOnlyARequestPresentingItIsServed() throws Exception {
        try (MetricsEndpoint metrics = MetricsEndpoint.start(Optional.of(new GatewayConfig.Metrics("127.0.0.1", 0,
                Optional.of(new PresentedToken("s3cret-scrape")))), Set.of(), registry)) {
            int port = metrics.port().orElseThrow();
            String host = "localhost:" + port;
            assertThat(statusLine(port, host, Optional.empty(), Optional.empty())).contains(" 401 ");
            assertThat(statusLine(port, host, Optional.empty(), Optional.of("Bearer s3cret-scrapE"))).contains(" 401 ");
            assertThat(statusLine(port, host, Optional.empty(), Optional.of("Bearer s3cret-scrape"))).contains(" 200 ");
        }
    }

    private MetricsEndpoint loopback() throws IOException {
        return MetricsEndpoint.start(Optional.of(new GatewayConfig.Metrics("127.0.0.1", 0)), Set.of(), registry);
    }

    private static String statusLine(int port, String host, Optional<String> origin) throws IOException {
        return statusLine(port, host, origin, Optional.empty());
    }

    private static String statusLine(int port, String host, Optional<String> origin, Optional<String> authorization)
            throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /metrics HTTP/1.1\r\nHost: " + host + "\r\n"
                    + origin.map(o -> "Origin: " + o + "\r\n").orElse("")
                    + authorization.map(a -> "Authorization: " + a + "\r\n").orElse("") + "Connection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
                line.append((char) c);
            }
            return line.toString();
        }
    }
}
