package dev.warden.auth;

import static dev.warden.auth.FakeAuthorizationServer.RESOURCE;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.jwk.RSAKey;
import dev.warden.core.identity.Credentials;
import dev.warden.core.identity.Verdict;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import dev.warden.testkit.MutableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The JWKS cache and its rate limit run on the resource server's clock (nimbus's cache takes the
 * time from its caller), so these tests move time by hand: lifetime 5 minutes, at most two
 * fetches per 30 s window, the defaults.
 */
class KeyRotationTest {

    static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
    static final RSAKey ROTATED = FakeAuthorizationServer.generate("rsa-2");

    FakeAuthorizationServer as;
    MutableClock clock = new MutableClock(NOW);
    ResourceServer server;

    @BeforeEach
    void start() throws Exception {
        as = new FakeAuthorizationServer("");
        server = ResourceServer.custom().issuer(Issuer.custom(as.issuer).jwksUri(as.jwksUri()).build()).clock(clock).build();
    }

    @AfterEach
    void stop() {
        as.close();
    }

    Verdict present(String token) {
        return server.authenticate(new Credentials(Optional.of("Bearer " + token), Optional.empty()), URI.create(RESOURCE));
    }

    String signedBy(RSAKey key) throws Exception {
        return FakeAuthorizationServer.sign(key, as.claims(clock.instant()).build(), JOSEObjectType.JWT);
    }

    @Test
    void the_jwks_is_fetched_once_and_then_served_from_the_cache() throws Exception {
        for (int i = 0; i < 5; i++) {
            assertThat(present(signedBy(as.key))).isInstanceOf(Verdict.Admitted.class);
        }
        assertThat(as.hits("/jwks")).isEqualTo(1);
    }

    @Test
    void a_token_signed_by_a_key_rotated_in_is_admitted_after_one_refetch() throws Exception {
        assertThat(present(signedBy(as.key))).isInstanceOf(Verdict.Admitted.class);
        as.publish(as.key.toPublicJWK(), ROTATED.toPublicJWK());
        clock.advance(Duration.ofSeconds(10));

        assertThat(present(signedBy(ROTATED))).isInstanceOf(Verdict.Admitted.class);
        assertThat(as.hits("/jwks")).isEqualTo(2);
        assertThat(present(signedBy(ROTATED))).isInstanceOf(Verdict.Admitted.class);
        assertThat(as.hits("/jwks")).isEqualTo(2);
    }

    @Test
    void a_key_removed_from_the_jwks_is_refused_once_the_cache_expires() throws Exception {
        assertThat(present(signedBy(as.key))).isInstanceOf(Verdict.Admitted.class);
        as.publish(ROTATED.toPublicJWK());

        clock.advance(Duration.ofMinutes(4));
        assertThat(present(signedBy(as.key))).as("still cached").isInstanceOf(Verdict.Admitted.class);
        clock.advance(Duration.ofMinutes(1).plusSeconds(1));
        assertThat(present(signedBy(as.key))).isInstanceOf(Verdict.Refused.class);
        assertThat(present(signedBy(ROTATED))).isInstanceOf(Verdict.Admitted.class);
    }

    @Test
    void the_same_token_is_verified_once_a_minute_not_on_every_request() throws Exception {
        ResourceServer brief = ResourceServer.custom().issuer(Issuer.custom(as.issuer).jwksUri(as.jwksUri()).build())
                .jwksCacheLifetime(Duration.ofSeconds(1)).clock(clock).build();
        URI resource = URI.create(RESOURCE);
        String token = signedBy(as.key);
        assertThat(brief.authenticate(bearer(token), resource)).isInstanceOf(Verdict.Admitted.class);
        as.publish(ROTATED.toPublicJWK()); // the key is gone from the set
        clock.advance(Duration.ofSeconds(2)); // and the set's cache has expired

        assertThat(brief.authenticate(bearer(token), resource)).as("verified a moment ago")
                .isInstanceOf(Verdict.Admitted.class);
        assertThat(brief.authenticate(bearer(signedBy(as.key)), resource)).as("a new token by the removed key")
                .isInstanceOf(Verdict.Refused.class);
        clock.advance(ResourceServer.VERIFIED_JWT_TTL);
        assertThat(brief.authenticate(bearer(token), resource)).isInstanceOf(Verdict.Refused.class);
    }

    @Test
    void a_verified_token_is_not_taken_as_verified_past_its_exp() throws Exception {
        ResourceServer strict = ResourceServer.custom().issuer(Issuer.custom(as.issuer).jwksUri(as.jwksUri()).build())
                .clockSkew(Duration.ZERO).clock(clock).build();
        URI resource = URI.create(RESOURCE);
        String token = FakeAuthorizationServer.sign(as.key, as.claims(clock.instant())
                .expirationTime(java.util.Date.from(clock.instant().plusSeconds(10))).build(), JOSEObjectType.JWT);
        assertThat(strict.authenticate(bearer(token), resource)).isInstanceOf(Verdict.Admitted.class);

        clock.advance(Duration.ofSeconds(11));

        assertThat(strict.authenticate(bearer(token), resource)).isInstanceOf(Verdict.Refused.class);
    }

    private static Credentials bearer(String token) {
        return new Credentials(Optional.of("Bearer " + token), Optional.empty());
    }

    @Test
    void unknown_kids_cannot_make_the_server_fetch_more_than_twice_per_window() throws Exception {
        RSAKey junk = FakeAuthorizationServer.generate("junk");
        String token = signedBy(junk);
        for (int i = 0; i < 50; i++) {
            assertThat(present(token)).isInstanceOf(Verdict.Refused.class);
        }
        assertThat(as.hits("/jwks")).isEqualTo(2);
        clock.advance(Duration.ofSeconds(31));
        assertThat(present(token)).isInstanceOf(Verdict.Refused.class);
        assertThat(as.hits("/jwks")).isEqualTo(3);
    }

    @Test
    void an_unknown_kid_refused_while_refetching_is_rate_limited_still_names_the_missing_key() throws Exception {
        String token = signedBy(FakeAuthorizationServer.generate("junk"));
        present(token); // the first fetch and one refetch: the window's two
        present(token);

        Verdict.Refused refused = (Verdict.Refused) present(token);

        assertThat(refused.reason()).contains("no matching key").doesNotContain("null");
    }
}
