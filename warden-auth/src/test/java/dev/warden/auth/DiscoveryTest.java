package dev.warden.auth;

import static dev.warden.auth.FakeAuthorizationServer.RESOURCE;
import static org.assertj.core.api.Assertions.assertThat;

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

/** An issuer's JWKS found from its metadata, where RFC 8414 or OpenID Connect put it. */
class DiscoveryTest {

    static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

    FakeAuthorizationServer as;
    MutableClock clock = new MutableClock(NOW);
    ResourceServer server;

    @BeforeEach
    void start() throws Exception {
        as = new FakeAuthorizationServer("/realms/warden");
        server = ResourceServer.custom().issuer(Issuer.of(as.issuer)).clock(clock).build();
    }

    @AfterEach
    void stop() {
        as.close();
    }

    Verdict present() throws Exception {
        String token = as.sign(as.claims(clock.instant()).build());
        return server.authenticate(new Credentials(Optional.of("Bearer " + token), Optional.empty()), URI.create(RESOURCE));
    }

    @Test
    void metadata_is_found_first_at_the_rfc_8414_path_with_the_issuer_path_after_the_suffix() throws Exception {
        assertThat(present()).isInstanceOf(Verdict.Admitted.class);
        assertThat(as.hits("/.well-known/oauth-authorization-server/realms/warden")).isEqualTo(1);
        assertThat(as.hits("/realms/warden/.well-known/openid-configuration")).isZero();
    }

    @Test
    void metadata_is_found_at_the_openid_configuration_when_rfc_8414_has_none() throws Exception {
        as.rfc8414 = false;
        assertThat(present()).isInstanceOf(Verdict.Admitted.class);
        assertThat(as.hits("/realms/warden/.well-known/openid-configuration")).isEqualTo(1);
    }

    @Test
    void metadata_naming_another_issuer_is_not_used() throws Exception {
        as.metadataIssuer = "http://attacker.example";
        Verdict v = present();
        assertThat(v).isInstanceOf(Verdict.Refused.class);
        assertThat(((Verdict.Refused) v).reason()).contains("names another issuer");
        assertThat(as.hits("/jwks")).isZero();
    }

    @Test
    void a_failed_discovery_is_retried_after_ten_seconds_not_on_every_request() throws Exception {
        as.metadataIssuer = "http://attacker.example";
        present();
        present();
        assertThat(as.hits("/.well-known/oauth-authorization-server/realms/warden")).isEqualTo(1);
        as.metadataIssuer = as.issuer.toString();
        clock.advance(Duration.ofSeconds(10));
        assertThat(present()).isInstanceOf(Verdict.Admitted.class);
    }
}
