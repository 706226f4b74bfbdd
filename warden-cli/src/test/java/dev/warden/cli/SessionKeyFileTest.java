package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.gateway.config.ConfigException;
import dev.warden.gateway.config.GatewayConfig;
import dev.warden.http.server.McpHttpServer;
import dev.warden.http.server.SessionKeys;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The session key file: read when private and well formed, refused otherwise, never printing a secret. */
class SessionKeyFileTest {

    @TempDir
    Path dir;

    private Path keyFile(String text, String mode) throws Exception {
        Path file = dir.resolve("session-keys");
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        return file;
    }

    @Test
    void aPrivateFileOfKeysIsReadTheFirstSealing() throws Exception {
        String line = SessionKeys.newKeyLine("k2");
        Path file = keyFile("# rotated in on 2026-11-24\n" + line + "\n" + SessionKeys.newKeyLine("k1") + "\n",
                "rw-------");

        assertThat(SessionKeyFile.read(file).ids()).containsExactly("k2", "k1");
    }

    @Test
    void aFileOthersCanReadIsRefused() throws Exception {
        Path file = keyFile(SessionKeys.newKeyLine("k1"), "rw-r--r--");

        assertThatThrownBy(() -> SessionKeyFile.read(file)).isInstanceOf(ConfigException.class)
                .hasMessageEndingWith("readable by other users; chmod 600 it");
    }

    @Test
    void aMalformedLineIsNamedWithoutItsSecret() throws Exception {
        Path file = keyFile("k1 c2hvcnQ\n", "rw-------");

        assertThatThrownBy(() -> SessionKeyFile.read(file)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("line 1").hasMessageContaining("must be 32 bytes")
                .hasMessageNotContaining("c2hvcnQ");
    }

    @Test
    void aMissingFileIsNamed() {
        assertThatThrownBy(() -> SessionKeyFile.read(dir.resolve("absent"))).isInstanceOf(ConfigException.class)
                .hasMessageEndingWith("absent: cannot be read");
    }

    @Test
    void theConfiguredKeysMakeTheServersSessionIdsSealed() throws Exception {
        Path file = keyFile(SessionKeys.newKeyLine("k1"), "rw-------");
        GatewayConfig.Http.Sessions sessions = new GatewayConfig.Http.Sessions(Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.of(new GatewayConfig.Http.Sessions.Portable(file, Duration.ofHours(1))));
        dev.warden.server.McpServer mcp = dev.warden.server.McpServer.builder("k", "1").build();
        try (McpHttpServer server = new HttpLimitsOptions().applyTo(McpHttpServer.builder().onSession(mcp::connect),
                sessions, Set.of()).build().start(); HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(server.endpoint())
                    .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString("""
                            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",\
                            "capabilities":{},"clientInfo":{"name":"t","version":"1"}}}""")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(response.headers().firstValue("Mcp-Session-Id")).hasValueSatisfying(
                    id -> assertThat(id).startsWith("ws1.k1."));
        }
    }
}
