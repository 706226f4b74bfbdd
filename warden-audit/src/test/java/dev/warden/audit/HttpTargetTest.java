package dev.warden.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.http.HttpAuthorization;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HttpTargetTest {

    private static final URI ENDPOINT = URI.create("https://mcp.example.com/mcp");

    /** An authorization that already holds a token, as OAuth does once the audit's client is authorized. */
    private static HttpAuthorization holding(String header) {
        return new HttpAuthorization() {
            @Override
            public Optional<String> header() {
                return Optional.of(header);
            }

            @Override
            public void refused(URI endpoint, Optional<String> sent, int status, List<String> challenges) {
                throw new AssertionError("not asked here");
            }
        };
    }

    @Test
    void theAuditsOwnRequestsCarryTheAuthorizationsCurrentToken() {
        Target.Http target = (Target.Http) Target.http(ENDPOINT, Map.of("X-Tenant", "t1"), holding("Bearer abc"));

        assertThat(target.requestHeaders()).containsEntry("X-Tenant", "t1").containsEntry("Authorization", "Bearer abc");
    }

    @Test
    void anAuthorizationHeaderGivenByHandIsNotReplaced() {
        Target.Http target = (Target.Http) Target.http(ENDPOINT, Map.of("authorization", "Bearer mine"),
                holding("Bearer other"));

        assertThat(target.requestHeaders()).containsExactly(Map.entry("authorization", "Bearer mine"));
    }

    @Test
    void aDescriptionSaysOAuthAndShowsNoToken() {
        Target target = Target.http(ENDPOINT, Map.of(), holding("Bearer abc"));

        assertThat(target.describe()).isEqualTo("http: https://mcp.example.com/mcp (OAuth)").doesNotContain("abc");
    }
}
