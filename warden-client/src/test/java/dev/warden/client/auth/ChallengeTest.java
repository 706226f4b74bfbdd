package dev.warden.client.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ChallengeTest {

    @Test
    void bearerParametersAreRead() {
        Challenge c = Challenge.bearer(List.of(
                "Bearer error=\"insufficient_scope\", scope=\"mcp:basic mcp:write\", resource_metadata=\"https://a.example/.well-known/oauth-protected-resource/mcp\""));
        assertThat(c.insufficientScope()).isTrue();
        assertThat(c.scopes()).containsExactlyInAnyOrder("mcp:basic", "mcp:write");
        assertThat(c.resourceMetadata()).contains("https://a.example/.well-known/oauth-protected-resource/mcp");
    }

    @Test
    void aBearerChallengeAfterAnotherSchemeIsFound() {
        Challenge c = Challenge.bearer(List.of("Basic realm=\"x\", Bearer scope=\"read\", realm=\"y\""));
        assertThat(c.scopes()).containsExactly("read");
        assertThat(c.error()).isEmpty();
    }

    @Test
    void escapedQuotesStayInsideTheValue() {
        Challenge c = Challenge.bearer(List.of("Bearer error=\"a\\\"b\", scope=\"s\""));
        assertThat(c.error()).contains("a\"b");
        assertThat(c.scopes()).containsExactly("s");
    }

    @Test
    void noBearerChallengeIsNone() {
        assertThat(Challenge.bearer(List.of("Basic realm=\"x\""))).isEqualTo(Challenge.NONE);
        assertThat(Challenge.bearer(List.of())).isEqualTo(Challenge.NONE);
        assertThat(Challenge.bearer(List.of("Bearer"))).isEqualTo(
                new Challenge(Optional.empty(), java.util.Set.of(), Optional.empty()));
    }

    @Test
    void anOversizedHeaderIsNotRead() {
        String header = "Bearer scope=\"" + "a ".repeat(Challenge.MAX_HEADER) + "\"";
        assertThat(Challenge.bearer(List.of(header))).isEqualTo(Challenge.NONE);
    }

    @Test
    void unterminatedQuotesAndJunkEndTheScanWithoutFailing() {
        assertThat(Challenge.bearer(List.of("Bearer scope=\"open")).scopes()).containsExactly("open");
        assertThat(Challenge.bearer(List.of("Bearer ,,, =x, scope")).scopes()).isEmpty();
    }
}
