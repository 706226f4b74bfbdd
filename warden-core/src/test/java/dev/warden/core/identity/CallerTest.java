package dev.warden.core.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A principal is its kind, its issuer and its subject: two callers are the same only if all three are. */
class CallerTest {

    private static Caller caller(Caller.Kind kind, String issuer, String subject) {
        return new Caller(subject, Optional.empty(), issuer, Set.of(), Map.of(), kind, Optional.empty());
    }

    @Test
    void theSameKindIssuerAndSubjectIsTheSamePrincipal() {
        assertThat(caller(Caller.Kind.JWT, "https://as.example", "alice")
                .samePrincipal(caller(Caller.Kind.JWT, "https://as.example", "alice"))).isTrue();
    }

    @Test
    void aTokenIsNotTheApiKeyWhoseIssuerAndSubjectItRepeats() {
        Caller key = caller(Caller.Kind.API_KEY, "api-key", "key:alice");
        Caller token = caller(Caller.Kind.JWT, "api-key", "key:alice");

        assertThat(key.samePrincipal(token)).isFalse();
        assertThat(token.samePrincipal(key)).isFalse();
    }

    @Test
    void anotherIssuerOrSubjectIsAnotherPrincipal() {
        Caller alice = caller(Caller.Kind.JWT, "https://as.example", "alice");

        assertThat(alice.samePrincipal(caller(Caller.Kind.JWT, "https://other.example", "alice"))).isFalse();
        assertThat(alice.samePrincipal(caller(Caller.Kind.JWT, "https://as.example", "bob"))).isFalse();
    }
}
