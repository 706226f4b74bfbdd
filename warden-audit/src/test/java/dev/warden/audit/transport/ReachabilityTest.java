package dev.warden.audit.transport;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The plain initialize POST that says why a target did not connect: credentials sent, session ended. */
class ReachabilityTest {

    /** What the server saw: method, Authorization, Mcp-Session-Id. */
    private final List<String> seen = new CopyOnWriteArrayList<>();
    private HttpServer server;

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private URI serve(int status, boolean session) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/mcp", exchange -> answer(exchange, status, session));
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
    }

    private void answer(HttpExchange exchange, int status, boolean session) throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            seen.add(exchange.getRequestMethod() + " " + exchange.getRequestHeaders().getFirst("Authorization")
                    + " " + exchange.getRequestHeaders().getFirst("Mcp-Session-Id"));
            if (exchange.getRequestMethod().equals("DELETE")) {
                exchange.sendResponseHeaders(200, -1);
                return;
            }
            byte[] body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            if (session) {
                exchange.getResponseHeaders().add("Mcp-Session-Id", "s-1");
            }
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
        }
    }

    @Test
    void theSessionTheInitializeOpenedIsEnded() throws IOException {
        URI url = serve(200, true);
        Reachability.Verdict verdict = Reachability.post(url, Map.of("Authorization", "Bearer t0k"),
                Duration.ofSeconds(10), new IllegalStateException());
        assertThat(verdict).isInstanceOf(Reachability.Verdict.Cause.class);
        assertThat(seen).containsExactly("POST Bearer t0k null", "DELETE Bearer t0k s-1");
    }

    @Test
    void noSessionNothingToDelete() throws IOException {
        URI url = serve(404, false);
        assertThat(Reachability.post(url, Map.of(), Duration.ofSeconds(10), new IllegalStateException()))
                .isEqualTo(new Reachability.Verdict.NotStreamable(404));
        assertThat(seen).containsExactly("POST null null");
    }

    @Test
    void aRefusedTokenIsNotAnsweredWithGiveOauth() throws IOException {
        URI url = serve(401, false);
        Reachability.Verdict verdict = Reachability.post(url, Map.of("Authorization", "Bearer t0k"),
                Duration.ofSeconds(10), new IllegalStateException());
        assertThat(((Reachability.Verdict.Cause) verdict).line()).contains("refuses the credentials given")
                .doesNotContain("or --oauth");
        assertThat(seen).containsExactly("POST Bearer t0k null");
    }

    @Test
    void noCredentialsIsAnsweredWithHowToGiveThem() throws IOException {
        URI url = serve(401, false);
        Reachability.Verdict verdict = Reachability.post(url, Map.of(), Duration.ofSeconds(10),
                new IllegalStateException());
        assertThat(((Reachability.Verdict.Cause) verdict).line()).contains("--oauth");
    }
}
