package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code warden audit --url …/mcp} through the launcher against a server that only speaks the
 * 2024-11-05 HTTP+SSE transport, built with the official TypeScript SDK's SSEServerTransport
 * ({@code legacy-sse-server.mjs}): the audit falls back to it, probes every tool, and says which
 * transport it used; and a URL nothing listens on exits 3 with the cause in one line.
 */
class AuditLegacyTransportEndToEndTest {

    @Test
    void aServerOnTheOlderTransportIsAuditedOverIt() throws Exception {
        Process server = new ProcessBuilder(Processes.node("legacy-sse-server.mjs"))
                .directory(Processes.NODE_DIR.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            assertThat(line).as("the legacy server started").startsWith("listening on port ");
            String url = "http://127.0.0.1:" + line.substring("listening on port ".length()).trim() + "/mcp";
            Path reports = Files.createTempDirectory("warden-audit-legacy-e2e");

            Processes.Result result = Processes.run(List.of(Processes.LAUNCHER.toString(), "audit", "--url", url,
                    "--format", "json,text", "--out", reports.resolve("legacy").toString(), "--fail-on", "none"));

            assertThat(result.exitCode()).as(result.stderr()).isZero();
            JsonNode report = Json.mapper().readTree(Files.readString(reports.resolve("legacy.json")));
            assertThat(report.get("transport").asString()).isEqualTo("http+sse");
            assertThat(report.get("server").get("name").asString()).isEqualTo("legacy-notes");
            assertThat(report.get("coverage").get("toolsProbed").asInt()).isEqualTo(2);
            assertThat(report.get("findings").valueStream().map(f -> f.get("ruleId").asString()))
                    .contains("WDN-H005").doesNotContain("WDN-S005");
            assertThat(Files.readString(reports.resolve("legacy.txt"))).contains("transport: HTTP+SSE (2024-11-05)");
        } finally {
            server.destroy();
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    @Test
    void aUrlNothingListensOnExitsThreeWithTheCause() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }

        Processes.Result result = Processes.run(List.of(Processes.LAUNCHER.toString(), "audit", "--url",
                "http://127.0.0.1:" + port + "/mcp", "--header", "X-API-Key: e2e-secret-key"));

        assertThat(result.exitCode()).isEqualTo(3);
        assertThat(result.stderr()).contains("connection refused at 127.0.0.1:" + port)
                .doesNotContain("e2e-secret-key").doesNotContain("ConnectionClosedException");
    }
}
