package dev.warden.auth;

import static dev.warden.auth.FakeAuthorizationServer.RESOURCE;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.warden.core.identity.Caller;
import dev.warden.core.identity.Credentials;
import dev.warden.core.identity.Verdict;
import dev.warden.core.identity.Verdict.Refusal;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import dev.warden.testkit.MutableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class JwtAccessTokenTest {

    static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

    FakeAuthorizationServer as;
    MutableClock clock = new MutableClock(NOW);
    ResourceServer server;

    @BeforeEach
    void start() throws Exception {
        as = new FakeAuthorizationServer("");
        server = ResourceServer.custom().issuer(Issuer.custom(as.issuer).jwksUri(as.jwksUri()).build())
                .requiredScopes(Set.of("mcp:tools")).clock(clock).build();
    }

    @AfterEach
    void stop() {
        as.close();
    }

    Verdict present(String token) {
        return server.authenticate(new Credentials(Optional.of("Bearer " + token), Optional.empty()), URI.create(RESOURCE));
    }

    static Refusal refusal(Verdict v) {
        assertThat(v).isInstanceOf(Verdict.Refused.class);
        return ((Verdict.Refused) v).refusal();
    }

    @Test
    void a_valid_token_is_admitted_with_its_subject_client_scopes_and_other_claims() throws Exception {
        String token = as.sign(as.claims(NOW).claim("tenant", "acme").build());
        Verdict v = present(token);
        assertThat(v).isInstanceOf(Verdict.Admitted.class);
        Caller c = ((Verdict.Admitted) v).caller();
        assertThat(c.subject()).isEqualTo("alice");
        assertThat(c.clientId()).contains("inspector");
        assertThat(c.issuer()).isEqualTo(as.issuer.toString());
        assertThat(c.scopes()).containsExactlyInAnyOrder("mcp:tools", "mcp:read");
        assertThat(c.kind()).isEqualTo(Caller.Kind.JWT);
        assertThat(c.claims()).containsEntry("tenant", "acme").containsEntry("exp", NOW.getEpochSecond() + 300)
                .doesNotContainKeys("sub", "scope", "client_id");
        assertThat(c.token()).isPresent().get().extracting(t -> t.value()).isEqualTo(token);
    }

    @Test
    void scopes_may_come_as_an_scp_array_and_the_client_as_azp() throws Exception {
        JWTClaimsSet claims = as.claims(NOW).claim("scope", null).claim("client_id", null)
                .claim("scp", List.of("mcp:tools")).claim("azp", "cli").build();
        Caller c = ((Verdict.Admitted) present(as.sign(claims))).caller();
        assertThat(c.scopes()).containsExactly("mcp:tools");
        assertThat(c.clientId()).contains("cli");
    }

    @Test
    void the_bearer_scheme_is_case_insensitive() throws Exception {
        String token = as.sign(as.claims(NOW).build());
        Verdict v = server.authenticate(new Credentials(Optional.of("bEaReR " + token), Optional.empty()), URI.create(RESOURCE));
        assertThat(v).isInstanceOf(Verdict.Admitted.class);
    }

    @Test
    void a_token_whose_signature_is_padded_is_refused() throws Exception {
        String token = as.sign(as.claims(NOW).build());
        for (String padded : List.of(token + "=", token + "==")) {
            Verdict v = present(padded);
            assertThat(refusal(v)).isEqualTo(Refusal.INVALID_TOKEN);
            assertThat(((Verdict.Refused) v).reason()).contains("base64url");
        }
        assertThat(present(token)).isInstanceOf(Verdict.Admitted.class);
    }

    @Test
    void a_token_whose_signature_has_non_zero_unused_bits_is_refused() throws Exception {
        String token = as.sign(as.claims(NOW).build());
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        String signature = token.substring(token.lastIndexOf('.') + 1);
        assertThat(signature.length() % 4).isNotZero(); // an RS256 signature leaves unused bits
        char last = signature.charAt(signature.length() - 1);
        String sibling = token.substring(0, token.length() - 1) + alphabet.charAt(alphabet.indexOf(last) ^ 1);
        assertThat(Base64URL.from(sibling.substring(sibling.lastIndexOf('.') + 1)).decode())
                .isEqualTo(Base64URL.from(signature).decode());

        Verdict v = present(sibling);

        assertThat(refusal(v)).isEqualTo(Refusal.INVALID_TOKEN);
        assertThat(((Verdict.Refused) v).reason()).contains("base64url");
    }

    @Test
    void a_token_cannot_claim_an_api_keys_subject() throws Exception {
        Verdict v = present(as.sign(as.claims(NOW).subject("key:alice").build()));

        assertThat(refusal(v)).isEqualTo(Refusal.INVALID_TOKEN);
        assertThat(((Verdict.Refused) v).reason()).contains("key:");
    }

    @Test
    void a_token_for_another_audience_is_refused() throws Exception {
        Verdict v = present(as.sign(as.claims(NOW).audience("https://other.example/mcp").build()));
        assertThat(refusal(v)).isEqualTo(Refusal.INVALID_TOKEN);
        assertThat(((Verdict.Refused) v).reason()).contains("audience");
        assertThat(((Verdict.Refused) v).scopes()).containsExactly("mcp:tools");
    }

    @Test
    void a_configured_audience_replaces_the_resource() throws Exception {
        ResourceServer custom = ResourceServer.custom().clock(clock)
                .issuer(Issuer.custom(as.issuer).jwksUri(as.jwksUri()).audience("api://warden").build()).build();
        String forWarden = as.sign(as.claims(NOW).audience(List.of("account", "api://warden")).build());
        String forResource = as.sign(as.claims(NOW).build());
        URI resource = URI.create(RESOURCE);
        assertThat(custom.authenticate(new Credentials(Optional.of("Bearer " + forWarden), Optional.empty()), resource))
                .isInstanceOf(Verdict.Admitted.class);
        assertThat(refusal(custom.authenticate(new Credentials(Optional.of("Bearer " + forResource), Optional.empty()), resource)))
                .isEqualTo(Refusal.INVALID_TOKEN);
    }

    @Test
    void a_token_expired_beyond_the_skew_is_refused() throws Exception {
        String token = as.sign(as.claims(NOW.minusSeconds(600)).expirationTime(Date.from(NOW.minusSeconds(61))).build());
        assertThat(refusal(present(token))).isEqualTo(Refusal.INVALID_TOKEN);
    }

    @Test
    void a_token_expired_within_the_skew_is_admitted() throws Exception {
        String token = as.sign(as.claims(NOW.minusSeconds(600)).expirationTime(Date.from(NOW.minusSeconds(30))).build());
        assertThat(present(token)).isInstanceOf(Verdict.Admitted.class);
    }

    @Test
    void a_token_not_yet_valid_is_refused() throws Exception {
        String token = as.sign(as.claims(NOW).notBeforeTime(Date.from(NOW.plusSeconds(120))).build());
        assertThat(refusal(present(token))).isEqualTo(Refusal.INVALID_TOKEN);
    }

    @Test
    void a_token_without_exp_is_refused() throws Exception {
        assertThat(refusal(present(as.sign(as.claims(NOW).expirationTime(null).build())))).isEqualTo(Refusal.INVALID_TOKEN);
    }

    @Test
    void a_tampered_payload_is_refused() throws Exception {
        String token = as.sign(as.claims(NOW).build());
        String[] parts = token.split("\\.");
        String forged = parts[0] + "." + Base64URL.encode(as.claims(NOW).subject("admin").build().toString()) + "." + parts[2];
        assertThat(refusal(present(forged))).isEqualTo(Refusal.INVALID_TOKEN);
    }

    @Test
    void a_token_signed_by_a_key_outside_the_jwks_is_refused() throws Exception {
        RSAKey stranger = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
        String token = FakeAuthorizationServer.sign(stranger, as.claims(NOW).build(), JOSEObjectType.JWT);
        assertThat(refusal(present(token))).isEqualTo(Refusal.INVALID_TOKEN);
    }

    @Test
    void alg_none_is_refused() throws Exception {
        String header = Base64URL.encode("{\"alg\":\"none\",\"typ\":\"JWT\"}").toString();
        String token = header + "." + Base64URL.encode(as.claims(NOW).build().toString()) + ".";
        Verdict v = present(token);
        assertThat(refusal(v)).isEqualTo(Refusal.INVALID_TOKEN);
        assertThat(as.totalHits()).isZero();
    }

    @Test
    void hs256_keyed_with_the_rsa_public_key_is_refused() throws Exception {
        byte[] pub = as.key.toRSAPublicKey().getEncoded();
        SignedJWT hs = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("rsa-1").build(), as.claims(NOW).build());
        hs.sign(new MACSigner(Arrays.copyOf(pub, Math.max(pub.length, 32))));
        assertThat(refusal(present(hs.serialize()))).isEqualTo(Refusal.INVALID_TOKEN);
    }

    @Test
    void a_token_from_an_unknown_issuer_is_refused_without_a_request() throws Exception {
        String token = as.sign(as.claims(NOW).issuer("http://evil.example").build());
        assertThat(refusal(present(token))).isEqualTo(Refusal.INVALID_TOKEN);
        assertThat(as.totalHits()).isZero();
    }

    @Test
    void typ_at_jwt_is_admitted_and_another_typ_refused() throws Exception {
        String at = FakeAuthorizationServer.sign(as.key, as.claims(NOW).build(), new JOSEObjectType("at+jwt"));
        assertThat(present(at)).isInstanceOf(Verdict.Admitted.class);
        // A DPoP proof (or any other kind of JWT) is not an access token, even when it is signed by the issuer.
        String dpop = FakeAuthorizationServer.sign(as.key, as.claims(NOW).build(), new JOSEObjectType("dpop+jwt"));
        assertThat(refusal(present(dpop))).isEqualTo(Refusal.INVALID_TOKEN);
    }

    @Test
    void a_token_without_the_required_scopes_is_refused_403_asking_for_them_and_its_own() throws Exception {
        Verdict v = present(as.sign(as.claims(NOW).claim("scope", "mcp:read").build()));
        assertThat(refusal(v)).isEqualTo(Refusal.INSUFFICIENT_SCOPE);
        assertThat(((Verdict.Refused) v).scopes()).containsExactlyInAnyOrder("mcp:tools", "mcp:read");
    }

    @Test
    void each_of_two_issuers_is_accepted_and_its_metadata_discovered_with_path_insertion() throws Exception {
        try (FakeAuthorizationServer second = new FakeAuthorizationServer("/realms/two")) {
            ECKey ec = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
            second.publish(ec.toPublicJWK());
            ResourceServer both = ResourceServer.custom().clock(clock)
                    .issuer(Issuer.custom(as.issuer).jwksUri(as.jwksUri()).build())
                    .issuer(Issuer.of(second.issuer)).build();
            URI resource = URI.create(RESOURCE);
            String one = as.sign(as.claims(NOW).build());
            String two = FakeAuthorizationServer.sign(ec, second.claims(NOW).subject("bob").build(), JOSEObjectType.JWT);
            Verdict first = both.authenticate(new Credentials(Optional.of("Bearer " + one), Optional.empty()), resource);
            Verdict other = both.authenticate(new Credentials(Optional.of("Bearer " + two), Optional.empty()), resource);
            assertThat(((Verdict.Admitted) first).caller().subject()).isEqualTo("alice");
            assertThat(((Verdict.Admitted) other).caller().subject()).isEqualTo("bob");
            assertThat(((Verdict.Admitted) other).caller().issuer()).isEqualTo(second.issuer.toString());
            assertThat(second.hits("/.well-known/oauth-authorization-server/realms/two")).isEqualTo(1);
        }
    }

    @Test
    void the_metadata_names_the_resource_issuers_and_scopes() {
        ResourceServer s = ResourceServer.custom().clock(clock).issuer(Issuer.of(as.issuer))
                .requiredScopes(Set.of("mcp:tools")).toolScopes(java.util.Map.of("admin__*", Set.of("mcp:admin"))).build();
        var m = s.metadata(URI.create(RESOURCE));
        assertThat(m.resource()).isEqualTo(URI.create(RESOURCE));
        assertThat(m.authorizationServers()).containsExactly(as.issuer);
        assertThat(m.scopesSupported()).containsExactlyInAnyOrder("mcp:tools", "mcp:admin");
        assertThat(as.totalHits()).isZero();
    }

    @Test
    void skew_is_bounded_to_five_minutes() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ResourceServer.custom().clockSkew(Duration.ofMinutes(6)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("clockSkew");
    }
}
