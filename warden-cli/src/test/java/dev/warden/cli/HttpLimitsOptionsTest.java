package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.gateway.config.GatewayConfig;
import dev.warden.http.server.McpHttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The configuration file's {@code http.allowedOrigins} reaches the HTTP server, and the flag wins over it. */
class HttpLimitsOptionsTest {

    private static final String INSPECTOR = "http://localhost:6274";

    @Test
    void theFilesAllowedOriginsAreAllowed() throws Exception {
        assertThat(statusFrom(new HttpLimitsOptions(), Set.of(INSPECTOR))).isNotEqualTo(403);
    }

    @Test
    void withoutThemTheOriginIsRefused() throws Exception {
        assertThat(statusFrom(new HttpLimitsOptions(), Set.of())).isEqualTo(403);
    }

    @Test
    void theFlagWinsOverTheFile() throws Exception {
        HttpLimitsOptions flags = new HttpLimitsOptions();
        flags.allowedOrigins = List.of("http://localhost:9999");
        assertThat(statusFrom(flags, Set.of(INSPECTOR))).isEqualTo(403);
    }

    private static int statusFrom(HttpLimitsOptions flags, Set<String> fileOrigins) throws Exception {
        GatewayConfig.Http.Sessions sessions = new GatewayConfig.Http.Sessions(Optional.of(5),
                Optional.empty(), Optional.of(Duration.ofMinutes(1)));
        try (McpHttpServer server = flags.applyTo(McpHttpServer.builder().host("127.0.0.1").port(0)
                .onSession(transport -> { }), sessions, fileOrigins).build().start()) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(server.endpoint().toString()))
                    .timeout(Duration.ofSeconds(20))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .header("Origin", INSPECTOR)
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"))
                    .build();
            try (HttpClient client = HttpClient.newHttpClient()) {
                return client.send(request, HttpResponse.BodyHandlers.ofString()).statusCode();
            }
        }
    }
}
