package dev.warden.audit.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.warden.audit.Finding;
import dev.warden.audit.Rule;
import dev.warden.core.identity.Authenticator;
import dev.warden.core.identity.Credentials;
import dev.warden.core.identity.ProtectedResourceMetadata;
import dev.warden.core.identity.Verdict;
import dev.warden.http.server.McpHttpServer;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HttpChecksTest {

    private final HttpChecks checks = HttpChecks.of(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .build(), Duration.ofSeconds(20));

    private static McpServer server() {
        return McpServer.builder("clean", "1")
                .tool(ToolSpec.builder("echo").handler(call -> ToolResult.text("echoed")).build()).build();
    }

    @Test
    void theTestsJvmMaySendAForeignHostHeader() {
        assertThat(HttpChecks.hostHeaderAllowed()).isTrue();
    }

    @Test
    void wardensOwnHttpServerGivesNoFinding() throws Exception {
        McpServer server = server();
        try (McpHttpServer http = McpHttpServer.builder().onSession(server::connect).build().start()) {
            assertThat(checks.probe(http.endpoint(), Map.of())).isEmpty();
        }
    }

    @Test
    void wardensOwnHttpServerBehindAnAuthenticatorPointsItsRefusalsToItsMetadata() throws Exception {
        McpServer server = server();
        Authenticator tokens = new Authenticator() {
            @Override
            public Verdict authenticate(Credentials credentials, URI resource) {
                return credentials.authorization().filter("Bearer ok"::equals).<Verdict>map(t -> new Verdict.Admitted(
                        new dev.warden.core.identity.Caller("alice", java.util.Optional.empty(), "https://as.example",
                                Set.of(), Map.of(), dev.warden.core.identity.Caller.Kind.JWT,
                                java.util.Optional.empty())))
                        .orElse(new Verdict.Refused(Verdict.Refusal.MISSING, Set.of(), "no token"));
            }

            @Override
            public ProtectedResourceMetadata metadata(URI resource) {
                return new ProtectedResourceMetadata(resource, List.of(URI.create("https://as.example")), List.of());
            }
        };
        try (McpHttpServer http = McpHttpServer.builder().authenticator(tokens).onSession(server::connect).build()
                .start()) {
            assertThat(checks.probe(http.endpoint(), Map.of("Authorization", "Bearer ok"))).isEmpty();
        }
    }

    @Test
    void aServerClosingAKeptAliveConnectionUnderTheNextProbeIsAskedAgainOnANewOne() throws Exception {
        List<Finding> polite;
        try (RawEndpoint keeps = new RawEndpoint(RawEndpoint.Behaviour.KEEPS_ALIVE)) {
            polite = checks.probe(keeps.endpoint(), Map.of());
        }
        try (RawEndpoint drops = new RawEndpoint(RawEndpoint.Behaviour.DROPS_ONE_KEPT_ALIVE)) {
            List<Finding> found = checks.probe(drops.endpoint(), Map.of());

            assertThat(drops.dropped()).as("a probe sent on a connection the server then closed").isEqualTo(1);
            assertThat(found).extracting(Finding::rule, Finding::location)
                    .isEqualTo(polite.stream().map(f -> tuple(f.rule(), f.location())).toList())
                    .containsExactly(tuple(Rule.HTTP_NO_ORIGIN_CHECK, "header:Origin"),
                            tuple(Rule.HTTP_NO_ORIGIN_CHECK, "header:Host"));
        }
    }

    @Test
    void aProbeThatTimesOutIsNotSentAgain() throws Exception {
        try (CountingClient client = new CountingClient(HttpClient.newHttpClient());
             RawEndpoint silent = new RawEndpoint(RawEndpoint.Behaviour.NEVER_ANSWERS)) {
            HttpChecks impatient = HttpChecks.of(client, Duration.ofMillis(200));
            assertThatThrownBy(() -> impatient.probe(silent.endpoint(), Map.of()))
                    .isInstanceOf(HttpTimeoutException.class);
            assertThat(client.sent()).as("requests sent").isEqualTo(1);
        }
    }

    @Test
    void aSloppyEndpointGetsEveryHttpFinding() throws Exception {
        try (SloppyEndpoint sloppy = new SloppyEndpoint()) {
            List<Finding> found = checks.probe(sloppy.endpoint(), Map.of("Authorization", SloppyEndpoint.TOKEN));
            assertThat(found).extracting(Finding::rule).containsExactlyInAnyOrder(
                    Rule.HTTP_NO_ORIGIN_CHECK, Rule.HTTP_NO_ORIGIN_CHECK, Rule.HTTP_GUESSABLE_SESSION,
                    Rule.HTTP_401_WITHOUT_METADATA, Rule.HTTP_VERSION_BANNER, Rule.HTTP_VERSION_BANNER);
            assertThat(found).extracting(Finding::location).contains("header:Origin", "header:Host",
                    "header:Mcp-Session-Id", "header:WWW-Authenticate", "header:Server", "header:X-Powered-By");
        }
    }

    @Test
    void aBannersFindingCarriesItsFingerprintNeverItsValue() throws Exception {
        try (SloppyEndpoint sloppy = new SloppyEndpoint()) {
            List<Finding> found = checks.probe(sloppy.endpoint(), Map.of("Authorization", SloppyEndpoint.TOKEN));
            assertThat(found).filteredOn(f -> f.rule() == Rule.HTTP_VERSION_BANNER).allSatisfy(f -> {
                assertThat(f.evidence()).isPresent();
                assertThat(f.toString()).doesNotContain("2.4.41").doesNotContain("4.17.1");
            });
        }
    }

    @Test
    void numberedSessionIdsAreGuessable() {
        assertThat(HttpChecks.sessionIds(List.of("s-1001", "s-1002", "s-1003"))).isPresent();
    }

    @Test
    void longIdsSharingAllButAFewCharactersAreGuessable() {
        String prefix = "a".repeat(40);
        assertThat(HttpChecks.sessionIds(List.of(prefix + "01", prefix + "02", prefix + "03"))).isPresent();
    }

    @Test
    void randomUuidsAndBase64IdsOf128BitsPass() {
        assertThat(HttpChecks.sessionIds(List.of(java.util.UUID.randomUUID().toString(),
                java.util.UUID.randomUUID().toString(), java.util.UUID.randomUUID().toString()))).isEmpty();
        assertThat(HttpChecks.sessionIds(List.of("Jx9qL2mZ8vB4nT6rW1yK3hQ", "pR7sD0fG5jH2kL9zX4cV8bN",
                "mQ3wE6rT1yU8iO0pA5sD2fG"))).isEmpty();
    }

    @Test
    void theSameIdTwiceIsGuessable() {
        String id = java.util.UUID.randomUUID().toString();
        assertThat(HttpChecks.sessionIds(List.of(id, id))).isPresent();
    }

    @Test
    void aServerHeaderWithoutAVersionIsNoBanner() {
        assertThat(HttpChecks.banners(Map.of("server", "nginx"))).isEmpty();
        assertThat(HttpChecks.banners(Map.of("server", "nginx/1.25.3"))).hasSize(1);
    }

    /** server-everything (Express) sends {@code X-Powered-By: Express}: the product, with no version. */
    @Test
    void aPoweredByHeaderNamesTheProductEvenWithoutAVersion() {
        List<Finding> found = HttpChecks.banners(Map.of("x-powered-by", "Express"));

        assertThat(found).singleElement().satisfies(f -> {
            assertThat(f.rule()).isEqualTo(Rule.HTTP_VERSION_BANNER);
            assertThat(f.location()).isEqualTo("header:X-Powered-By");
            assertThat(f.toString()).doesNotContain("Express");
        });
    }
}
