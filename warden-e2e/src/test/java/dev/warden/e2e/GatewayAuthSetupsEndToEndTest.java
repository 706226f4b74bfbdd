package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code warden gateway} set up in ways of its own: a per-client rate limit that follows the
 * authenticated subject, not the name a client gives; and the safe default, refusing to serve a
 * host beyond loopback without authentication unless told it is insecure.
 */
class GatewayAuthSetupsEndToEndTest {

    private static final String SERVE = """
            upstreams:
              everything:
                command: [%s, %s, stdio]
            """.formatted(Processes.NODE, WardenClientWithServerEverythingTest.SERVER);

    @Test
    void aSubjectsRateLimitHoldsAcrossItsSessionsWhateverTheyCallThemselvesAndSparesOthers() throws Exception {
        AuthorizationServer as = AuthorizationServer.start();
        try {
            HttpGateway gateway = HttpGateway.start("""
                    http: { port: 0 }
                    rateLimit: { perClient: 5/h }
                    auth:
                      issuers:
                        - issuer: %s
                      scopes: [mcp:tools]
                    """.formatted(as.issuer()) + SERVE, 1);
            try {
                Map<String, String> olga = AuthedHttp.bearer(as.tokenWith(Map.of("aud", gateway.url(), "sub", "olga")));
                Map<String, String> pat = AuthedHttp.bearer(as.tokenWith(Map.of("aud", gateway.url(), "sub", "pat")));
                String first = AuthedHttp.initialize(gateway.url(), olga, "first-app");
                String second = AuthedHttp.initialize(gateway.url(), olga, "second-app");

                // Each session's tools/list (AuthedHttp.initialize) spent one of Olga's 5: 3 calls are left.
                List<JsonNode> olgas = new ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    olgas.add(AuthedHttp.call(gateway.url(), olga, i % 2 == 0 ? first : second, 10 + i, "echo",
                            "{\"message\":\"" + i + "\"}"));
                }
                String patsSession = AuthedHttp.initialize(gateway.url(), pat, "first-app");
                List<JsonNode> pats = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    pats.add(AuthedHttp.call(gateway.url(), pat, patsSession, 20 + i, "echo", "{\"message\":\"p\"}"));
                }

                assertThat(olgas.stream().filter(GatewayAuthSetupsEndToEndTest::admitted)).hasSize(3);
                assertThat(olgas.stream().filter(a -> !admitted(a))).hasSize(3).allSatisfy(refused -> {
                    assertThat(refused.at("/result/isError").asBoolean()).as(refused.toString()).isTrue();
                    assertThat(refused.toString()).contains("RATE_LIMITED");
                });
                assertThat(pats).allMatch(GatewayAuthSetupsEndToEndTest::admitted);
            } finally {
                gateway.stop();
            }
        } finally {
            as.close();
        }
    }

    private static boolean admitted(JsonNode answer) {
        return answer.has("result") && !answer.at("/result/isError").asBoolean(false);
    }

    private static Path config(String yaml) throws Exception {
        Path dir = Files.createTempDirectory("warden-safe-default");
        Path file = dir.resolve("warden.yaml");
        Files.writeString(file, yaml);
        return file;
    }

    private static final String EXPOSED = """
            http: { host: 0.0.0.0, port: 0, allowedHosts: [mcp.example.com] }
            """ + SERVE;

    @Test
    void aHostBeyondLoopbackWithoutAuthIsRefusedNamingTheWayOut() throws Exception {
        Path file = config(EXPOSED);

        Processes.Result result = Processes.run(List.of(Processes.LAUNCHER.toString(), "gateway", "--config",
                file.toString(), "--data-dir", file.getParent().toString()));

        assertThat(result.exitCode()).as(result.stderr()).isEqualTo(2);
        assertThat(result.stderr()).contains("0.0.0.0").contains("--insecure-no-auth").contains("auth");
        assertThat(result.stdout()).doesNotContain("serving");
    }

    @Test
    void withInsecureNoAuthTheSameConfigurationIsServed() throws Exception {
        Path file = config(EXPOSED);

        LinePeer gateway = new LinePeer(List.of(Processes.LAUNCHER.toString(), "gateway", "--config", file.toString(),
                "--data-dir", file.getParent().toString(), "--insecure-no-auth"));
        try {
            assertThat(gateway.nextLine(Duration.ofSeconds(60))).startsWith("warden gateway: serving 1 upstream(s) at http://");
        } finally {
            gateway.destroy();
        }
    }
}
