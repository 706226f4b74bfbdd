package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * RFC 8693 through the gateway: the upstream is itself a resource server ({@code warden demo
 * --http 0 --auth FILE}, issuer = the test's authorization server, resource = its own URL), so it
 * accepts only tokens issued for it. A caller holding a token for the GATEWAY reaches the demo's
 * tools only through a gateway whose upstream has {@code tokenExchange}: the gateway exchanges the
 * caller's token for one whose audience is the demo. Without the exchange the call fails, and the
 * caller's own token, presented to the demo, is refused: the gateway never passes it through.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayTokenExchangeEndToEndTest {

    static final String INITIALIZE = """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",\
            "capabilities":{},"clientInfo":{"name":"warden-e2e","version":"1"}}}""";

    AuthorizationServer as;
    DemoOverHttp demo;
    HttpGateway exchanging;
    HttpGateway plain;

    @BeforeAll
    void start() throws Exception {
        as = AuthorizationServer.start();
        demo = DemoOverHttp.start("""
                issuers:
                  - issuer: %s
                scopes: [mcp:tools]
                """.formatted(as.issuer()));
        String gateway = """
                http: { port: 0 }
                auth:
                  issuers:
                    - issuer: %s
                  scopes: [mcp:tools]
                upstreams:
                  demo:
                    url: "%s"
                """.formatted(as.issuer(), demo.url());
        exchanging = HttpGateway.start(gateway + """
                    tokenExchange:
                      tokenEndpoint: %s/token
                      clientId: %s
                      clientSecret: %s
                """.formatted(as.issuer(), AuthorizationServer.INTROSPECTION_CLIENT_ID,
                AuthorizationServer.INTROSPECTION_CLIENT_SECRET), 1);
        // The same, less the exchange: a connection per caller, as the exchange implies, so only the
        // upstream's credentials differ.
        plain = HttpGateway.start(gateway + "    perClient: true\n", 1);
    }

    @AfterAll
    void stop() throws Exception {
        for (HttpGateway g : new HttpGateway[] {exchanging, plain}) {
            if (g != null) {
                g.stop();
            }
        }
        if (demo != null) {
            demo.stop();
        }
        if (as != null) {
            as.close();
        }
    }

    private static BearerClient listAndFetch() {
        return new BearerClient().request("tools/list", "tools/list", Json.object())
                .call("fetch", "fetch_document", "{\"id\":\"doc-1\"}");
    }

    private String tokenFor(String resource) throws Exception {
        return as.clientCredentialsToken(resource, Set.of("mcp:tools"));
    }

    @Test
    void aCallerWithATokenForTheGatewayListsAndCallsTheDemosToolsThroughTheExchange() throws Exception {
        JsonNode seen = listAndFetch().runAgainst(exchanging.url(), Optional.of(tokenFor(exchanging.url())));

        assertThat(seen.at("/connect/ok").asBoolean()).as(seen.toString()).isTrue();
        assertThat(seen.at("/steps/tools~1list/result/tools").valueStream().map(t -> t.get("name").asString()))
                .as(seen.toString()).contains("fetch_document", "create_user");
        JsonNode fetch = seen.at("/steps/fetch/result");
        assertThat(fetch.path("isError").asBoolean(false)).as(seen.toString()).isFalse();
        assertThat(fetch.at("/content/0/text").asString()).as(seen.toString()).isNotBlank();
    }

    @Test
    void withoutTheExchangeTheSameCallerCannotReachTheDemo() throws Exception {
        JsonNode seen = listAndFetch().runAgainst(plain.url(), Optional.of(tokenFor(plain.url())));

        // Admitted by the gateway (no 401), refused by the demo, whose refusal the gateway reports as
        // an upstream that could not be started: the caller never reaches the demo's tools.
        assertThat(seen.at("/connect/ok").asBoolean()).as(seen.toString()).isFalse();
        assertThat(seen.at("/connect/error/code").asInt()).as(seen.toString()).isEqualTo(-32603);
        assertThat(seen.at("/connect/error/data/code").asString()).as(seen.toString()).isEqualTo("UPSTREAM_ERROR");
        assertThat(seen.get("steps").isEmpty()).isTrue();
    }

    @Test
    void theOperatorLearnsThatTheDemoAskedForAuthorizationAndWhichCallerMetIt() throws Exception {
        JsonNode seen = listAndFetch().runAgainst(plain.url(), Optional.of(tokenFor(plain.url())));
        String ref = seen.at("/connect/error/data/ref").asString();
        assertThat(ref).as(seen.toString()).startsWith("ref_");

        Processes.Result shown = Processes.run(List.of(Processes.LAUNCHER.toString(), "incidents", "show", ref,
                "--data-dir", plain.dataDir().toString()));
        assertThat(shown.exitCode()).as(shown.stderr()).isZero();
        assertThat(shown.stdout()).contains("upstream:  demo").contains("HTTP 401")
                .contains("subject:   " + AuthorizationServer.CLIENT_ID);
    }

    @Test
    void theCallersTokenForTheGatewayPresentedToTheDemoIsRefusedAsMeantForAnotherAudience() throws Exception {
        HttpResponse<String> response = initialize(demo.url(), tokenFor(exchanging.url()));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate").orElse(""))
                .startsWith("Bearer ").contains("error=\"invalid_token\"");
    }

    @Test
    void aTokenIssuedForTheDemoItselfIsAcceptedThere() throws Exception {
        HttpResponse<String> response = initialize(demo.url(), tokenFor(demo.url()));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    @Test
    void theExchangedTokenNamesTheCallerAsSubjectAndTheGatewaysClientAsActor() throws Exception {
        String exchanged = as.exchange(tokenFor(exchanging.url()), demo.url());

        AuthorizationServer.Inspection seen = as.inspect(exchanged, demo.url());
        assertThat(seen.verified()).as(seen.error()).isTrue();
        assertThat(seen.claims().get("sub").asString()).isEqualTo(AuthorizationServer.CLIENT_ID);
        assertThat(seen.claims().at("/act/sub").asString()).isEqualTo(AuthorizationServer.INTROSPECTION_CLIENT_ID);
    }

    @Test
    void theGatewaysAuditNamesTheOriginalCallerOfACallMadeThroughTheExchange() throws Exception {
        JsonNode seen = listAndFetch().runAgainst(exchanging.url(), Optional.of(tokenFor(exchanging.url())));
        assertThat(seen.at("/steps/fetch/result/isError").asBoolean(false)).as(seen.toString()).isFalse();

        List<JsonNode> calls = auditedCalls(exchanging.dataDir().resolve("audit"), "fetch_document");
        assertThat(calls).as("audited tools/call records").isNotEmpty().allSatisfy(r -> {
            assertThat(r.path("subject").asString()).isEqualTo(AuthorizationServer.CLIENT_ID);
            assertThat(r.path("clientId").asString()).isEqualTo(AuthorizationServer.CLIENT_ID);
        });
    }

    /** The audit's tools/call records of {@code tool}, waiting (at most 30 s) for the first to be written. */
    private static List<JsonNode> auditedCalls(Path dir, String tool) throws Exception {
        Instant deadline = Instant.now().plusSeconds(30);
        while (true) {
            List<JsonNode> found = new ArrayList<>();
            if (Files.isDirectory(dir)) {
                try (Stream<Path> files = Files.walk(dir)) {
                    for (Path file : files.filter(Files::isRegularFile).toList()) {
                        for (String line : Files.readAllLines(file)) {
                            if (line.startsWith("{") && line.contains(tool) && line.contains("\"tools/call\"")) {
                                found.add(Json.mapper().readTree(line));
                            }
                        }
                    }
                }
            }
            if (!found.isEmpty() || Instant.now().isAfter(deadline)) {
                return found;
            }
            Thread.sleep(100); // the audit is written after the answer; this waits for the write, times nothing
        }
    }

    private static HttpResponse<String> initialize(String url, String token) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
