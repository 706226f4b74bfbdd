package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * {@code warden audit --url} through the launcher against real Streamable HTTP servers: Warden's
 * demo (open, behind an API key, and as an OAuth resource server of a real authorization server),
 * the official server-everything, and {@code warden gateway} in front of a stdio server. Each HTTP
 * finding asserted here was checked by hand against what the server does (curl), and the tests
 * check it again with a request of their own where it matters.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuditOverHttpEndToEndTest {

    private static final String INITIALIZE = GatewayTokenExchangeEndToEndTest.INITIALIZE;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** What one audit left: its exit code and stderr, and its JSON report when it wrote one. */
    record Audited(Processes.Result result, JsonNode report) {
        Set<String> rules() {
            return report.get("findings").valueStream().map(f -> f.get("ruleId").asString()).collect(Collectors.toSet());
        }

        List<JsonNode> findings(String rule) {
            return report.get("findings").valueStream().filter(f -> rule.equals(f.get("ruleId").asString())).toList();
        }

        List<String> skipped() {
            return report.get("skipped").valueStream().map(JsonNode::asString).toList();
        }
    }

    private Path reports;
    private Audited demo;
    private Audited keyed;
    private Processes.Result refused;
    private String keyedChallenge;
    private String apiKey;
    private Audited everything;
    private int everythingOriginStatus;
    private Audited gateway;
    private int gatewayOriginStatus;
    private Audited bearer;
    private Audited oauth;
    private String bearerToken;

    private Audited audit(String name, String url, String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of(Processes.LAUNCHER.toString(), "audit", "--url", url,
                "--format", "json", "--out", reports.resolve(name).toString(), "--fail-on", "none"));
        command.addAll(List.of(options));
        Processes.Result result = Processes.run(command);
        Path json = reports.resolve(name + ".json");
        assertThat(json).as("%s: %s", name, result.stderr()).exists();
        return new Audited(result, Json.mapper().readTree(Files.readString(json)));
    }

    private static HttpResponse<String> initialize(String url, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE));
        headers.forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @BeforeAll
    void auditEachServer() throws Exception {
        reports = Files.createTempDirectory("warden-audit-http-e2e");
        auditTheDemo();
        auditTheDemoBehindAnApiKey();
        auditServerEverything();
        auditTheGateway();
        auditTheDemoAsAResourceServer();
    }

    private void auditTheDemo() throws Exception {
        DemoOverHttp open = DemoOverHttp.open();
        try {
            demo = audit("demo", open.url());
        } finally {
            open.stop();
        }
    }

    private void auditTheDemoBehindAnApiKey() throws Exception {
        GatewayApiKeysEndToEndTest.Minted minted = GatewayApiKeysEndToEndTest.mint("auditor");
        apiKey = minted.key();
        Path keys = Files.createTempDirectory("warden-audit-keys").resolve("api-keys.yaml");
        Files.writeString(keys, "keys:\n" + minted.entry() + "\n");
        DemoOverHttp withKeys = DemoOverHttp.start("""
                scopes: [mcp:tools]
                apiKeys:
                  file: %s
                """.formatted(keys));
        try {
            keyed = audit("keyed", withKeys.url(), "--header", "X-API-Key: " + apiKey);
            refused = Processes.run(List.of(Processes.LAUNCHER.toString(), "audit", "--url", withKeys.url()));
            HttpResponse<String> anonymous = initialize(withKeys.url(), Map.of());
            assertThat(anonymous.statusCode()).isEqualTo(401);
            keyedChallenge = anonymous.headers().firstValue("WWW-Authenticate").orElse("");
        } finally {
            withKeys.stop();
        }
    }

    private void auditServerEverything() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        ProcessBuilder builder = new ProcessBuilder(List.of(Processes.NODE, WardenClientWithServerEverythingTest.SERVER,
                "streamableHttp")).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("PORT", Integer.toString(port));
        Process server = builder.start();
        try {
            BufferedReader err = new BufferedReader(new InputStreamReader(server.getErrorStream(), StandardCharsets.UTF_8));
            String line;
            do {
                line = err.readLine();
            } while (line != null && !line.contains("listening on port"));
            assertThat(line).as("server-everything started").isNotNull();
            Thread.ofVirtual().start(() -> err.lines().forEach(l -> { }));
            String url = "http://localhost:" + port + "/mcp";
            everything = audit("everything", url);
            everythingOriginStatus = initialize(url, Map.of("Origin", "http://evil.example")).statusCode();
        } finally {
            server.destroy();
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    private void auditTheGateway() throws Exception {
        HttpGateway front = HttpGateway.inFrontOfServerEverything();
        try {
            gateway = audit("gateway", front.url());
            gatewayOriginStatus = initialize(front.url(), Map.of("Origin", "http://evil.example")).statusCode();
        } finally {
            front.stop();
        }
    }

    private void auditTheDemoAsAResourceServer() throws Exception {
        AuthorizationServer as = AuthorizationServer.start();
        try {
            DemoOverHttp secured = DemoOverHttp.start("""
                    issuers:
                      - issuer: %s
                    scopes: [mcp:tools]
                    """.formatted(as.issuer()));
            try {
                bearerToken = as.clientCredentialsToken(secured.url(), Set.of("mcp:tools"));
                bearer = audit("bearer", secured.url(), "--header", "Authorization: Bearer " + bearerToken);
                oauth = audit("oauth", secured.url(), "--oauth");
            } finally {
                secured.stop();
            }
        } finally {
            as.close();
        }
    }

    private static void probedTheTools(Audited audited) {
        assertThat(audited.result().exitCode()).as(audited.result().stderr()).isZero();
        assertThat(audited.report().get("server").get("name").asString()).isEqualTo("warden-demo");
        // six tools, each a dozen probes and more, and the malformed POSTs: far more than a listing
        assertThat(audited.report().get("requests").asInt()).isGreaterThan(60);
        assertThat(audited.skipped()).noneMatch(s -> s.contains("malformed") || s.contains("failed"));
    }

    private static Set<String> highLeaks(Audited audited) {
        return audited.report().get("findings").valueStream()
                .filter(f -> f.get("ruleId").asString().startsWith("WDN-L"))
                .filter(f -> "high".equalsIgnoreCase(f.get("severity").asString()))
                .map(f -> f.get("ruleId").asString() + " " + f.path("tool").asString("")).collect(Collectors.toSet());
    }

    @Test
    void theDemoIsProbedOverHttpAndLeaksNothingHigh() {
        probedTheTools(demo);
        assertThat(highLeaks(demo)).isEmpty();
    }

    @Test
    void theDemoChecksOriginAndHostAndIssuesUnguessableSessionsWithoutBanners() {
        assertThat(demo.rules()).doesNotContain("WDN-H001", "WDN-H002", "WDN-H003", "WDN-H004");
    }

    @Test
    void theDemoAnswersEveryMalformedPostWithoutAServerFailure() {
        assertThat(demo.findings("WDN-S005")).noneMatch(f -> f.get("probe").asString().startsWith("malformed"));
        assertThat(demo.findings("WDN-S004")).isEmpty();
    }

    @Test
    void theDemoBehindAnApiKeyIsProbedWithTheKeyInAHeader() {
        probedTheTools(keyed);
        assertThat(highLeaks(keyed)).isEmpty();
        assertThat(keyed.report().get("target").asString()).contains("headers: X-API-Key").doesNotContain(apiKey);
        assertThat(keyed.result().stdout() + keyed.result().stderr()).doesNotContain(apiKey);
    }

    @Test
    void itsUnauthenticated401PointsToMetadataSoNoMetadataFindingIsMade() {
        assertThat(keyedChallenge).contains("resource_metadata=");
        assertThat(keyed.rules()).doesNotContain("WDN-H003");
    }

    @Test
    void withoutTheKeyTheAuditSaysItWasRefusedAndHowToGiveCredentials() {
        assertThat(refused.exitCode()).as(refused.stderr()).isEqualTo(3);
        assertThat(refused.stderr()).contains("refused the audit").contains("HTTP 401")
                .contains("--header 'Authorization: Bearer TOKEN'").contains("--header 'X-API-Key: KEY'");
        assertThat(refused.stdout()).isEmpty();
    }

    @Test
    void serverEverythingServesAForeignOriginAndHostAndTheAuditSaysSo() {
        assertThat(everythingOriginStatus).isEqualTo(200);
        assertThat(everything.findings("WDN-H001")).extracting(f -> f.get("location").asString())
                .containsExactlyInAnyOrder("header:Origin", "header:Host");
    }

    @Test
    void serverEverythingsUuidSessionsAreNotGuessableAndItAsksNoCredentials() {
        assertThat(everything.rules()).doesNotContain("WDN-H002", "WDN-H003");
    }

    @Test
    void serverEverythingsExpressBannerIsReportedByItsFingerprint() {
        assertThat(everything.findings("WDN-H004")).singleElement().satisfies(f -> {
            assertThat(f.get("location").asString()).isEqualTo("header:X-Powered-By");
            assertThat(f.toString()).doesNotContain("Express");
        });
    }

    /** Its 413 for a 4 MiB body is a JSON-RPC error with code -32000 (curl shows it): the legacy band. */
    @Test
    void serverEverythingsAnswerToAnOversizedPostUsesALegacyCode() {
        assertThat(everything.findings("WDN-S004")).extracting(f -> f.get("probe").asString())
                .contains("malformed JSON-RPC over HTTP: an oversized message (4 MiB)");
        assertThat(everything.findings("WDN-S005")).noneMatch(f -> f.get("probe").asString().startsWith("malformed"));
    }

    @Test
    void theGatewayRefusesAForeignOriginSoNoRebindingFinding() {
        assertThat(gatewayOriginStatus).isEqualTo(403);
        assertThat(gateway.rules()).doesNotContain("WDN-H001", "WDN-H002", "WDN-H004");
        assertThat(gateway.report().get("requests").asInt()).isGreaterThan(60);
    }

    @Test
    void aTokenFromTheAuthorizationServerInAHeaderIsEnoughToProbeTheTools() {
        probedTheTools(bearer);
        assertThat(bearer.rules()).doesNotContain("WDN-H003");
        assertThat(bearer.report().toString() + bearer.result().stderr()).doesNotContain(bearerToken);
    }

    @Test
    void withOAuthTheAuditAuthorizesItselfAtTheAuthorizationServerAndProbesTheTools() {
        probedTheTools(oauth);
        assertThat(oauth.report().get("target").asString()).endsWith("(OAuth)");
        assertThat(oauth.rules()).doesNotContain("WDN-H003");
    }
}
