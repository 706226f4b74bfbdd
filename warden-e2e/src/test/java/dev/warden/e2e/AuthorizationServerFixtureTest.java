package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The fixtures the gateway's authentication tests stand on, proved on their own: the real
 * authorization server issues what the standards say, its test-only admin does what it claims, and
 * the SDK's OAuth client completes discovery, registration, PKCE and step-up against a server made
 * of the SDK's own bearer middleware. A failure through the gateway is then the gateway's.
 */
class AuthorizationServerFixtureTest {

    static final String RESOURCE = "https://mcp.example.com/mcp";
    static final String OPAQUE = "https://opaque.example.com/mcp";
    static final String UPSTREAM = "https://upstream.example.com/api";

    AuthorizationServer as;

    @BeforeEach
    void start() throws Exception {
        as = AuthorizationServer.start(AuthorizationServer.Resource.jwt(RESOURCE, "mcp:tools", "mcp:admin"),
                AuthorizationServer.Resource.opaque(OPAQUE, "mcp:tools"),
                AuthorizationServer.Resource.jwt(UPSTREAM, "upstream:read"),
                AuthorizationServer.Resource.jwt("*", "mcp:tools", "mcp:admin"));
    }

    @AfterEach
    void stop() throws Exception {
        as.close();
    }

    @Test
    void aClientCredentialsTokenIsAnAtJwtForTheResourceSignedByAPublishedKey() throws Exception {
        String token = as.clientCredentialsToken(RESOURCE, Set.of("mcp:tools"));

        AuthorizationServer.Inspection seen = as.inspect(token, RESOURCE);
        assertThat(seen.verified()).as(seen.error()).isTrue();
        assertThat(seen.header().get("typ").asString()).isEqualTo("at+jwt");
        assertThat(as.publishedKids()).contains(seen.header().get("kid").asString());
        assertThat(seen.claims().get("aud").asString()).isEqualTo(RESOURCE);
        assertThat(seen.claims().get("iss").asString()).isEqualTo(as.issuer()).startsWith("http://127.0.0.1:");
        assertThat(seen.claims().get("scope").asString()).isEqualTo("mcp:tools");
        assertThat(seen.claims().get("sub").asString()).isEqualTo(AuthorizationServer.CLIENT_ID);
    }

    @Test
    void aTokenForOneResourceIsNotAcceptedForAnother() throws Exception {
        String token = as.clientCredentialsToken(RESOURCE, Set.of("mcp:tools"));

        AuthorizationServer.Inspection seen = as.inspect(token, UPSTREAM);
        assertThat(seen.verified()).isFalse();
        assertThat(seen.error()).isEqualTo("ERR_JWT_CLAIM_VALIDATION_FAILED");
    }

    @Test
    void switchingTheSigningKidSignsTheNextTokensWithIt() throws Exception {
        as.signWith("k2");
        AuthorizationServer.Inspection rsa = as.inspect(as.clientCredentialsToken(RESOURCE, Set.of("mcp:tools")), RESOURCE);
        as.signWith("k3");
        AuthorizationServer.Inspection ec = as.inspect(as.clientCredentialsToken(RESOURCE, Set.of("mcp:tools")), RESOURCE);

        assertThat(rsa.header().get("kid").asString()).isEqualTo("k2");
        assertThat(rsa.header().get("alg").asString()).isEqualTo("RS256");
        assertThat(ec.header().get("kid").asString()).isEqualTo("k3");
        assertThat(ec.header().get("alg").asString()).isEqualTo("ES256");
        assertThat(List.of(rsa.verified(), ec.verified())).containsOnly(true);
    }

    @Test
    void aRetiredKidLeavesTheJwksAndTokensSignedWithItNoLongerVerify() throws Exception {
        String before = as.clientCredentialsToken(RESOURCE, Set.of("mcp:tools"));
        as.signWith("k2");
        as.retire("k1");

        assertThat(as.publishedKids()).containsExactlyInAnyOrder("k2", "k3");
        AuthorizationServer.Inspection old = as.inspect(before, RESOURCE);
        assertThat(old.header().get("kid").asString()).isEqualTo("k1");
        assertThat(old.error()).isEqualTo("ERR_JWKS_NO_MATCHING_KEY");
        assertThat(as.inspect(as.clientCredentialsToken(RESOURCE, Set.of("mcp:tools")), RESOURCE).verified()).isTrue();
    }

    @Test
    void aMintedExpiredTokenIsSignedByTheRealKeyAndRefusedOnlyForItsExpiry() throws Exception {
        String token = as.tokenWith(Map.of("aud", RESOURCE, "exp", 1000, "iat", 900));

        AuthorizationServer.Inspection seen = as.inspect(token, RESOURCE);
        assertThat(seen.claims().get("exp").asLong()).isEqualTo(1000L); // 1970: in the past on any clock
        assertThat(seen.header().get("kid").asString()).isEqualTo("k1");
        // jose checks the signature before the claims: expiry is the only thing wrong with it
        assertThat(seen.error()).isEqualTo("ERR_JWT_EXPIRED");
    }

    @Test
    void aMintedTokenCanLackExp() throws Exception {
        AuthorizationServer.Inspection noExp = as.inspect(as.tokenWith(Map.of("aud", RESOURCE), "exp"), RESOURCE);

        assertThat(noExp.claims().has("exp")).isFalse();
        assertThat(noExp.claims().get("iss").asString()).isEqualTo(as.issuer());
    }

    @Test
    void aMintedTokenCanCarryAnotherAudienceOrAnotherType() throws Exception {
        AuthorizationServer.Inspection other = as.inspect(as.tokenWith(Map.of("aud", UPSTREAM)), RESOURCE);
        AuthorizationServer.Inspection plainJwt = as.inspect(as.tokenWith(Map.of("typ", "JWT"), Map.of("aud", RESOURCE)),
                RESOURCE);

        assertThat(other.error()).isEqualTo("ERR_JWT_CLAIM_VALIDATION_FAILED");
        assertThat(plainJwt.header().get("typ").asString()).isEqualTo("JWT");
        assertThat(plainJwt.error()).isEqualTo("ERR_JWT_CLAIM_VALIDATION_FAILED");
    }

    @Test
    void anOpaqueTokenIsActiveOnIntrospectionWithItsAudienceAndScope() throws Exception {
        JsonNode introspected = as.introspect(as.opaqueToken(OPAQUE, Set.of("mcp:tools")));

        assertThat(introspected.get("active").asBoolean()).as(introspected.toString()).isTrue();
        assertThat(introspected.get("aud").asString()).isEqualTo(OPAQUE);
        assertThat(introspected.get("scope").asString()).isEqualTo("mcp:tools");
        assertThat(as.introspect("not-a-token-it-issued").get("active").asBoolean()).isFalse();
    }

    @Test
    void anExchangedTokenIsForTheUpstreamKeepsTheSubjectAndNamesTheActor() throws Exception {
        String subject = as.clientCredentialsToken(RESOURCE, Set.of("mcp:tools"));

        AuthorizationServer.Inspection seen = as.inspect(as.exchange(subject, UPSTREAM), UPSTREAM);
        assertThat(seen.verified()).as(seen.error()).isTrue();
        assertThat(seen.claims().get("sub").asString()).isEqualTo(AuthorizationServer.CLIENT_ID);
        assertThat(seen.claims().at("/act/sub").asString()).isEqualTo(AuthorizationServer.INTROSPECTION_CLIENT_ID);
        assertThat(seen.claims().get("scope").asString()).isEqualTo("upstream:read");
    }

    @Test
    void theSdkClientAuthorizesItselfAndStepsUpAgainstTheSdksOwnBearerMiddleware() throws Exception {
        LinePeer server = new LinePeer(List.of(AuthorizationServer.NODE,
                Processes.NODE_DIR.resolve("auth-stand-in-server.mjs").toString(), as.issuer()));
        try {
            String url = Json.mapper().readTree(server.nextLine(Duration.ofSeconds(30))).get("url").asString();

            OAuthClientRun run = OAuthClientRun.stepUp(url, "echo", "{\"message\":\"hi\"}", "admin__echo",
                    "{\"message\":\"hi\"}");

            assertThat(run.completed()).as(run.toString()).isTrue();
            assertThat(run.first("challenge").get("status").asInt()).isEqualTo(401);
            assertThat(run.first("resourceMetadata").get("resource").asString()).isEqualTo(url);
            assertThat(run.first("authorizationServerMetadata").get("issuer").asString()).isEqualTo(as.issuer());
            assertThat(run.first("registered").get("clientId").asString()).isNotEmpty();
            JsonNode stepUp = run.all("challenge").getLast();
            assertThat(stepUp.get("status").asInt()).isEqualTo(403);
            assertThat(stepUp.get("error").asString()).isEqualTo("insufficient_scope");
            assertThat(run.all("authorize")).extracting(a -> a.get("scope").asString())
                    .containsExactly("mcp:tools", "mcp:tools mcp:admin");
            assertThat(run.all("authorize")).extracting(a -> a.get("resource").asString()).containsOnly(url);
            assertThat(run.all("call")).extracting(c -> c.at("/content/0/text").asString())
                    .containsExactly("alice: hi", "alice: hi");
            assertThat(run.first("done").get("sessionId").asString())
                    .isEqualTo(run.first("connected").get("sessionId").asString());
        } finally {
            server.destroy();
        }
    }
}
