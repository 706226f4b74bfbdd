package dev.warden.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.warden.audit.report.ReportFormat;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The 2024-11-05 HTTP+SSE transport as the audit's fallback: a server that only speaks it is
 * audited over it and says so in every format; a target neither transport reaches fails with its
 * likely cause in one line.
 */
class LegacyTransportTest {

    private static Report audit(URI url, Map<String, String> headers) {
        return Audit.custom().target(Target.http(url, headers)).rate(10_000).callTimeout(Duration.ofSeconds(5))
                .build().run();
    }

    @Test
    void aServerOnlyOnHttpSseIsAuditedOverItFromItsMcpUrlsSibling() throws IOException {
        try (NotesHttpServer server = new NotesHttpServer(false, true)) {
            Report report = audit(server.mcp(), Map.of());

            assertThat(report.transport()).isEqualTo(TransportUsed.HTTP_SSE);
            assertThat(report.server()).map(Report.ServerInfo::name).contains("notes");
            assertThat(report.coverage().probed()).isEqualTo(3);
            assertThat(report.findings()).filteredOn(f -> f.rule() == Rule.LEGACY_TRANSPORT).hasSize(1);
            assertThat(report.findings()).noneMatch(f -> f.rule() == Rule.UNANSWERED);
            assertThat(report.skipped()).anyMatch(s -> s.startsWith("malformed JSON-RPC: a parse error")
                    && s.endsWith("the server answered HTTP 400 to a message"));
            assertThat(ReportFormat.TEXT.render(report)).contains("transport: HTTP+SSE (2024-11-05)");
            assertThat(ReportFormat.JSON.render(report)).contains("\"transport\" : \"http+sse\"");
            assertThat(ReportFormat.SARIF.render(report)).contains("http+sse");
            assertThat(ReportFormat.MARKDOWN.render(report)).contains("over HTTP+SSE (2024-11-05)");
            assertThat(ReportFormat.HTML.render(report)).contains("HTTP+SSE (2024-11-05)");
        }
    }

    @Test
    void theSseUrlItselfWorksToo() throws IOException {
        try (NotesHttpServer server = new NotesHttpServer(false, true)) {
            Report report = audit(server.mcp().resolve("/sse"), Map.of());

            assertThat(report.transport()).isEqualTo(TransportUsed.HTTP_SSE);
            assertThat(report.coverage().probed()).isEqualTo(3);
        }
    }

    @Test
    void aStreamableServerIsNotAskedForTheOlderTransport() throws IOException {
        try (NotesHttpServer server = new NotesHttpServer(false, false)) {
            Report report = audit(server.mcp(), Map.of("X-API-Key", NotesHttpServer.ALICE));

            assertThat(report.transport()).isEqualTo(TransportUsed.STREAMABLE_HTTP);
            assertThat(report.findings()).noneMatch(f -> f.rule() == Rule.LEGACY_TRANSPORT);
            assertThat(ReportFormat.JSON.render(report)).contains("\"transport\" : \"streamable-http\"");
        }
    }

    @Test
    void aRefusedConnectionIsSaidInOneLine() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort(); // closed again: nothing listens there now
        }
        URI url = URI.create("http://127.0.0.1:" + port + "/mcp");

        assertThatThrownBy(() -> audit(url, Map.of("X-API-Key", "k-secret-1"))).isInstanceOf(AuditException.class)
                .hasMessageContaining("connection refused at 127.0.0.1:" + port)
                .hasMessageNotContaining("k-secret-1").hasMessageNotContaining("\n");
    }

    @Test
    void anHtmlPageIsNamedAsSuch() throws IOException {
        try (Site site = new Site(200, "text/html; charset=utf-8", "<html><body>Welcome</body></html>")) {
            assertThatThrownBy(() -> audit(site.url(), Map.of())).isInstanceOf(AuditException.class)
                    .hasMessageContaining("an HTML page (HTTP 200), not an MCP endpoint");
        }
    }

    @Test
    void fourOhFourOnBothTransportsSaysWhereBothWereTried() throws IOException {
        try (Site site = new Site(404, "text/plain", "not here")) {
            assertThatThrownBy(() -> audit(site.url(), Map.of())).isInstanceOf(AuditException.class)
                    .hasMessageContaining("HTTP 404 to the Streamable HTTP POST, and no HTTP+SSE stream at /mcp")
                    .hasMessageContaining("/sse (the HTTP+SSE GET answered HTTP 404)");
        }
    }

    @Test
    void aServerFailingOnInitializeIsSaidSo() throws IOException {
        try (Site site = new Site(500, "text/plain", "boom at /srv/app")) {
            assertThatThrownBy(() -> audit(site.url(), Map.of())).isInstanceOf(AuditException.class)
                    .hasMessageContaining("HTTP 500: the server failed on initialize").hasMessageNotContaining("/srv/app");
        }
    }

    /** A site that answers everything with one status and body. */
    private static final class Site implements AutoCloseable {
        private final HttpServer server;

        Site(int status, String type, String body) throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", exchange -> {
                exchange.getRequestBody().readAllBytes();
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", type);
                exchange.sendResponseHeaders(status, bytes.length);
                exchange.getResponseBody().write(bytes);
                exchange.close();
            });
            server.start();
        }

        URI url() {
            return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
