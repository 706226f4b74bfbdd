package dev.warden.audit.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HeadlessBrowserTest {

    private static final URI REDIRECT = URI.create("http://127.0.0.1:9/callback");

    private HttpServer server;

    /** /auth sets a login cookie and sends to /login, which approves only with it; /ask shows a page. */
    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/auth", exchange -> {
            exchange.getResponseHeaders().add("Set-Cookie", "_interaction=abc; Path=/; HttpOnly");
            exchange.getResponseHeaders().add("Location", "/login");
            exchange.sendResponseHeaders(303, -1);
            exchange.close();
        });
        server.createContext("/login", exchange -> {
            String cookie = String.valueOf(exchange.getRequestHeaders().getFirst("Cookie"));
            if (cookie.contains("_interaction=abc")) {
                exchange.getResponseHeaders().add("Location", REDIRECT + "?code=c1&state=s1");
                exchange.sendResponseHeaders(303, -1);
            } else {
                exchange.sendResponseHeaders(400, -1);
            }
            exchange.close();
        });
        server.createContext("/ask", exchange -> {
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private URI at(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    @Test
    void itFollowsTheRedirectsWithTheServersCookiesBackToTheRedirectUri() {
        URI back = HeadlessBrowser.of(Duration.ofSeconds(5)).authorize(at("/auth?client_id=x"), REDIRECT);

        assertThat(back).isEqualTo(URI.create(REDIRECT + "?code=c1&state=s1"));
    }

    @Test
    void aServerThatAsksForAUserIsRefusedWithItsStatus() {
        assertThatThrownBy(() -> HeadlessBrowser.of(Duration.ofSeconds(5)).authorize(at("/ask"), REDIRECT))
                .hasMessageContaining("asked for a user (HTTP 200");
    }

    @Test
    void plainHttpIsFollowedOnlyToThisMachine() {
        assertThat(HeadlessBrowser.followable(URI.create("http://127.0.0.1:8080/x"))).isTrue();
        assertThat(HeadlessBrowser.followable(URI.create("http://localhost/x"))).isTrue();
        assertThat(HeadlessBrowser.followable(URI.create("https://as.example.com/x"))).isTrue();
        assertThat(HeadlessBrowser.followable(URI.create("http://as.example.com/x"))).isFalse();
        assertThat(HeadlessBrowser.followable(URI.create("http://10.0.0.5/x"))).isFalse();
    }
}
