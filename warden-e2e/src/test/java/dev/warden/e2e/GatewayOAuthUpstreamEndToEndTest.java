package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * {@code warden gateway} in front of an OAuth-protected server: the TypeScript SDK's own example
 * (simpleStreamableHttp --oauth, from the npm package), with its in-memory authorization server.
 * The gateway registers itself, authorizes (PKCE, no browser: the example approves at once) and
 * serves a client that holds no credentials; no token reaches its logs or audit.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayOAuthUpstreamEndToEndTest {

    Process secured;
    LinePeer gateway;
    Path dataDir;
    JsonNode direct;
    JsonNode bridged;

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @BeforeAll
    void start() throws Exception {
        int mcpPort = freePort();
        int authPort = freePort();
        Path out = Files.createTempFile("warden-oauth-upstream", ".out");
        ProcessBuilder builder = new ProcessBuilder(Processes.NODE, Processes.NODE_DIR.resolve(
                "node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/simpleStreamableHttp.js").toString(),
                "--oauth").directory(Processes.NODE_DIR.toFile()).redirectErrorStream(true).redirectOutput(out.toFile());
        builder.environment().put("MCP_PORT", Integer.toString(mcpPort));
        builder.environment().put("MCP_AUTH_PORT", Integer.toString(authPort));
        secured = builder.start();
        for (int i = 0; i < 300 && !Files.readString(out).contains("MCP Streamable HTTP Server listening"); i++) {
            assertThat(secured.isAlive()).as(Files.readString(out)).isTrue();
            Thread.sleep(100);
        }
        String url = "http://localhost:" + mcpPort + "/mcp";
        HttpGateway started = HttpGateway.start("""
                http: { port: 0 }
                upstreams:
                  secured:
                    url: "%s"
                    oauth: {}
                """.formatted(url), 1);
        gateway = started.peer();
        dataDir = started.dataDir();
        bridged = client(started.url());
        direct = client(url);
    }

    private static JsonNode client(String url) throws Exception {
        Processes.Result result = Processes.run(Processes.node("call-tool.mjs", url, "greet", "{\"name\":\"Ada\"}"));
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        return Json.mapper().readTree(result.stdout());
    }

    @AfterAll
    void stop() throws Exception {
        if (gateway != null) {
            gateway.destroy();
        }
        if (secured != null) {
            secured.destroyForcibly().waitFor();
        }
    }

    @Test
    void withoutCredentialsTheServerRefusesTheClient() {
        assertThat(direct.at("/connect/ok").asBoolean()).isFalse();
        assertThat(direct.at("/connect/error/code").asInt()).isEqualTo(401);
    }

    @Test
    void throughTheGatewayTheSameClientIsServed() {
        assertThat(bridged.at("/connect/ok").asBoolean()).as(bridged.toString()).isTrue();
        assertThat(bridged.at("/serverVersion/name").asString()).isEqualTo("simple-streamable-http-server");
        List<String> names = bridged.at("/listTools/value/tools").valueStream().map(t -> t.get("name").asString())
                .toList();
        assertThat(names).contains("greet");
        assertThat(bridged.at("/call/value/content/0/text").asString()).isEqualTo("Hello, Ada!");
    }

    @Test
    void noTokenOrClientSecretReachesTheGatewaysLogsOrAudit() throws Exception {
        List<String> texts = new ArrayList<>();
        texts.add(Files.readString(gateway.stderr));
        try (Stream<Path> files = Files.walk(dataDir)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                texts.add(Files.readString(file));
            }
        }
        assertThat(texts).allSatisfy(text -> assertThat(text)
                .doesNotContainIgnoringCase("bearer ").doesNotContain("access_token", "client_secret", "code_verifier"));
    }
}
