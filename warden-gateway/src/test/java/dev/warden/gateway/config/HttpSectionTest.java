package dev.warden.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code http.sessions} and {@code http.allowedOrigins}: the HTTP server's bounds, from the file. */
class HttpSectionTest {

    private static GatewayConfig.Http http(String section) {
        return GatewayConfig.parse("http: " + section + "\nupstreams: { a: { command: x } }", Map.<String, String>of()::get)
                .http().orElseThrow();
    }

    private static void rejected(String section, String message) {
        assertThatThrownBy(() -> http(section)).isInstanceOf(ConfigException.class).hasMessage(message);
    }

    @Test
    void sessionBoundsAndOriginsAreRead() {
        GatewayConfig.Http h = http("""
                { port: 8080, sessions: { max: 500, maxPerAddress: 20, idleTimeout: 5m },
                  allowedOrigins: ["http://localhost:6274", "https://inspector.example.com"] }""");
        assertThat(h.sessions().max()).contains(500);
        assertThat(h.sessions().maxPerAddress()).contains(20);
        assertThat(h.sessions().idleTimeout()).contains(Duration.ofMinutes(5));
        assertThat(h.allowedOrigins()).containsExactly("http://localhost:6274", "https://inspector.example.com");
    }

    @Test
    void unsetTheyAreTheServersDefaults() {
        GatewayConfig.Http h = http("{ port: 8080 }");
        assertThat(h.sessions()).isEqualTo(GatewayConfig.Http.Sessions.unset());
        assertThat(h.allowedOrigins()).isEmpty();
        assertThat(http("{ port: 8080, sessions: { idleTimeout: 90s } }").sessions())
                .isEqualTo(new GatewayConfig.Http.Sessions(Optional.empty(), Optional.empty(),
                        Optional.of(Duration.ofSeconds(90))));
    }

    @Test
    void aWrongValueNamesItsKey() {
        rejected("{ port: 8080, sessions: 100 }",
                "http.sessions: expected a mapping with \"max\", \"maxPerAddress\" and \"idleTimeout\"");
        rejected("{ port: 8080, sessions: { max: 0 } }", "http.sessions.max: expected a whole number of at least 1");
        rejected("{ port: 8080, sessions: { max: many } }", "http.sessions.max: expected a whole number");
        rejected("{ port: 8080, sessions: { maxPerAddress: -1 } }",
                "http.sessions.maxPerAddress: expected a whole number of at least 1");
        rejected("{ port: 8080, sessions: { idleTimeout: soon } }",
                "http.sessions.idleTimeout: expected a duration such as 60s, 5m or 1500ms");
        rejected("{ port: 8080, sessions: { idleTimeout: 0s } }",
                "http.sessions.idleTimeout: expected a positive duration such as 60s, 5m or 1500ms");
        rejected("{ port: 8080, sessions: { maxSessions: 5 } }",
                "unknown key http.sessions.maxSessions; expected one of idleTimeout, max, maxPerAddress, portable");
    }

    @Test
    void anOriginIsSchemeHostAndPort() {
        String expected = "http.allowedOrigins: expected a list of origins such as http://localhost:6274 "
                + "(scheme://host:port, no path)";
        rejected("{ port: 8080, allowedOrigins: http://localhost:6274 }", expected);
        rejected("{ port: 8080, allowedOrigins: [localhost:6274] }", expected);
        rejected("{ port: 8080, allowedOrigins: [\"http://localhost:6274/app\"] }", expected);
        rejected("{ port: 8080, allowedOrigins: [\"http://\"] }", expected);
        rejected("{ port: 8080, origins: [\"http://localhost:6274\"] }",
                "unknown key http.origins; expected one of allowedHosts, allowedOrigins, host, path, port, sessions");
    }
}
