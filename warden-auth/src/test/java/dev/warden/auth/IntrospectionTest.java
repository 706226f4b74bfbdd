package dev.warden.auth;

import static dev.warden.auth.FakeAuthorizationServer.RESOURCE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.identity.Caller;
import dev.warden.core.identity.Credentials;
import dev.warden.core.identity.Verdict;
import dev.warden.core.identity.Verdict.Refusal;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import dev.warden.testkit.MutableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class IntrospectionTest {

    static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
    static final String OPAQUE = "opaque-token-abc123";

    FakeAuthorizationServer as;
    MutableClock clock = new MutableClock(NOW);
    ResourceServer server;

    @BeforeEach
    void start() throws Exception {
        as = new FakeAuthorizationServer("");
        as.introspection = token -> token.equals(OPAQUE)
                ? Map.entry(200, "{\"active\":true,\"sub\":\"carol\",\"client_id\":\"batch\",\"scope\":\"mcp:tools\","
                        + "\"aud\":\"" + RESOURCE + "\",\"iss\":\"" + as.issuer + "\",\"exp\":" + (NOW.getEpochSecond() + 3600) + "}")
                : Map.entry(200, "{\"active\":false}");
        server = ResourceServer.custom().clock(clock).requiredScopes(Set.of("mcp:tools"))
                .issuer(Issuer.custom(as.issuer).introspection(Introspection.of("warden", "s3cret")).build()).build();
    }

    @AfterEach
    void stop() {
        as.close();
    }

    Verdict present(String token) {
        return server.authenticate(new Credentials(Optional.of("Bearer " + token), Optional.empty()), URI.create(RESOURCE));
    }

    @Test
    void an_active_opaque_token_is_admitted_as_introspected_with_client_secret_basic() {
        Verdict v = present(OPAQUE);
        Caller c = ((Verdict.Admitted) v).caller();
        assertThat(c.subject()).isEqualTo("carol");
        assertThat(c.clientId()).contains("batch");
        assertThat(c.kind()).isEqualTo(Caller.Kind.INTROSPECTED);
        assertThat(c.token()).isPresent();
        assertThat(as.lastIntrospectionAuthorization)
                .isEqualTo("Basic " + Base64.getEncoder().encodeToString("warden:s3cret".getBytes()));
        assertThat(as.hits("/.well-known/oauth-authorization-server")).as("endpoint discovered").isEqualTo(1);
    }

    @Test
    void an_answer_naming_another_issuer_is_refused_so_one_server_cannot_speak_for_anothers_users() {
        as.introspection = token -> Map.entry(200, "{\"active\":true,\"sub\":\"victim\",\"scope\":\"mcp:tools\","
                + "\"aud\":\"" + RESOURCE + "\",\"iss\":\"https://other-issuer.example\"}");

        Verdict v = present("opaque-from-elsewhere");

        assertThat(((Verdict.Refused) v).refusal()).isEqualTo(Refusal.INVALID_TOKEN);
        assertThat(((Verdict.Refused) v).reason()).contains("another issuer");
    }

    @Test
    void an_answer_that_does_not_say_whom_the_token_is_for_is_refused() {
        as.introspection = token -> Map.entry(200, "{\"active\":true,\"sub\":\"carol\",\"scope\":\"mcp:tools\"}");

        Verdict v = present("opaque-without-aud");

        assertThat(((Verdict.Refused) v).refusal()).isEqualTo(Refusal.INVALID_TOKEN);
        assertThat(((Verdict.Refused) v).reason()).contains("no audience");
    }

    @Test
    void an_introspected_token_is_asked_about_once_then_cached_for_at_most_five_minutes() {
        for (int i = 0; i < 5; i++) {
            assertThat(present(OPAQUE)).isInstanceOf(Verdict.Admitted.class);
        }
        assertThat(as.hits("/introspect")).isEqualTo(1);
        clock.advance(Duration.ofMinutes(5));
        assertThat(present(OPAQUE)).isInstanceOf(Verdict.Admitted.class);
        assertThat(as.hits("/introspect")).isEqualTo(2);
    }

    @Test
    void an_inactive_token_is_refused_and_the_answer_kept_30_seconds() {
        Verdict v = present("revoked-token");
        assertThat(((Verdict.Refused) v).refusal()).isEqualTo(Refusal.INVALID_TOKEN);
        assertThat(((Verdict.Refused) v).reason()).doesNotContain("revoked-token");
        present("revoked-token");
        assertThat(as.hits("/introspect")).isEqualTo(1);
        clock.advance(Duration.ofSeconds(30));
        present("revoked-token");
        assertThat(as.hits("/introspect")).isEqualTo(2);
    }

    @Test
    void an_active_token_for_another_audience_is_refused() {
        as.introspection = t -> Map.entry(200, "{\"active\":true,\"sub\":\"carol\",\"scope\":\"mcp:tools\",\"aud\":\"https://other\"}");
        Verdict v = present(OPAQUE);
        assertThat(((Verdict.Refused) v).refusal()).isEqualTo(Refusal.INVALID_TOKEN);
        assertThat(((Verdict.Refused) v).reason()).contains("audience");
    }

    @Test
    void an_endpoint_that_is_down_refuses_with_its_own_reason_and_is_asked_again_next_time() {
        as.introspection = t -> Map.entry(503, "{}");
        Verdict v = present(OPAQUE);
        assertThat(((Verdict.Refused) v).refusal()).isEqualTo(Refusal.INVALID_TOKEN);
        assertThat(((Verdict.Refused) v).reason()).contains("introspection unavailable").doesNotContain(OPAQUE);
        present(OPAQUE);
        assertThat(as.hits("/introspect")).isEqualTo(2);
    }

    @Test
    void an_opaque_token_without_any_issuer_that_introspects_is_refused_without_a_request() {
        ResourceServer jwtOnly = ResourceServer.custom().clock(clock).issuer(Issuer.of(as.issuer)).build();
        Verdict v = jwtOnly.authenticate(new Credentials(Optional.of("Bearer " + OPAQUE), Optional.empty()), URI.create(RESOURCE));
        assertThat(((Verdict.Refused) v).refusal()).isEqualTo(Refusal.INVALID_TOKEN);
        assertThat(as.totalHits()).isZero();
    }
}
