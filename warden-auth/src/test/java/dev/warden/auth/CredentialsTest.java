package dev.warden.auth;

import static dev.warden.auth.FakeAuthorizationServer.RESOURCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.identity.Credentials;
import dev.warden.core.identity.Verdict;
import dev.warden.core.identity.Verdict.Refusal;
import java.net.URI;
import java.util.Map;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How the headers are read, before any credential is judged; and the scopes a tool needs. */
class CredentialsTest {

    final ResourceServer server = ResourceServer.custom().issuer(Issuer.of(URI.create("https://as.example")))
            .requiredScopes(Set.of("mcp:tools"))
            .toolScopes(Map.of("admin__*", Set.of("mcp:admin"), "admin__drop", Set.of("mcp:danger"), "echo", Set.of("mcp:echo")))
            .build();

    Verdict.Refused refused(Optional<String> authorization, Optional<String> apiKey) {
        return (Verdict.Refused) server.authenticate(new Credentials(authorization, apiKey), URI.create(RESOURCE));
    }

    @Test
    void no_credential_is_missing_with_the_required_scopes() {
        Verdict.Refused r = refused(Optional.empty(), Optional.empty());
        assertThat(r.refusal()).isEqualTo(Refusal.MISSING);
        assertThat(r.scopes()).containsExactly("mcp:tools");
    }

    @Test
    void both_an_authorization_header_and_an_api_key_is_an_invalid_request() {
        assertThat(refused(Optional.of("Bearer abc"), Optional.of("wdn_x")).refusal()).isEqualTo(Refusal.INVALID_REQUEST);
    }

    @Test
    void another_scheme_is_an_invalid_request() {
        assertThat(refused(Optional.of("Basic dXNlcjpwYXNz"), Optional.empty()).refusal()).isEqualTo(Refusal.INVALID_REQUEST);
    }

    @Test
    void a_malformed_bearer_header_is_an_invalid_request() {
        assertThat(refused(Optional.of("Bearer"), Optional.empty()).refusal()).isEqualTo(Refusal.INVALID_REQUEST);
        assertThat(refused(Optional.of("Bearer a b"), Optional.empty()).refusal()).isEqualTo(Refusal.INVALID_REQUEST);
        assertThat(refused(Optional.of("Bearer a\"b"), Optional.empty()).refusal()).isEqualTo(Refusal.INVALID_REQUEST);
    }

    @Test
    void one_header_holding_several_credentials_is_an_invalid_request() {
        // Two Authorization field lines folded into one, as RFC 9110 section 5.3 allows a proxy to.
        for (String folded : List.of("Bearer abc, Bearer def", "Bearer abc,Bearer def", "Bearer wdn_a, Bearer wdn_b",
                "Bearer abc,def")) {
            assertThat(refused(Optional.of(folded), Optional.empty()).refusal()).as(folded)
                    .isEqualTo(Refusal.INVALID_REQUEST);
        }
        assertThat(refused(Optional.empty(), Optional.of("wdn_a, wdn_b")).refusal()).isEqualTo(Refusal.INVALID_REQUEST);
    }

    @Test
    void a_tool_needs_the_scopes_of_every_pattern_it_matches() {
        assertThat(server.scopesForTool("admin__drop")).containsExactlyInAnyOrder("mcp:admin", "mcp:danger");
        assertThat(server.scopesForTool("admin__list")).containsExactly("mcp:admin");
        assertThat(server.scopesForTool("echo")).containsExactly("mcp:echo");
        assertThat(server.scopesForTool("echo2")).isEmpty();
        assertThat(server.requiredScopes()).containsExactly("mcp:tools");
    }

    @Test
    void a_star_inside_a_tool_pattern_is_refused() {
        assertThatThrownBy(() -> ResourceServer.custom().toolScopes(Map.of("a*b", Set.of("x"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a*b");
    }

    @Test
    void a_resource_server_needs_an_issuer_or_api_keys() {
        assertThatThrownBy(() -> ResourceServer.custom().build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("issuer or API keys");
    }
}
