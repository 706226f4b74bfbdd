package dev.warden.http.server.internal.seal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.identity.Caller;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A portable session belongs to the principal that opened it: its kind, issuer and subject, all three. */
class SealedSessionTest {

    private static Optional<Caller> caller(Caller.Kind kind, String issuer, String subject) {
        return Optional.of(new Caller(subject, Optional.empty(), issuer, Set.of(), Map.of(), kind, Optional.empty()));
    }

    private static SealedSession sealedBy(Optional<Caller> opener) {
        return SealedSession.from(SealedSession.of(opener, Optional.empty()).bytes()).orElseThrow();
    }

    @Test
    void aSessionAnApiKeyOpenedIsItsOwnAcrossReplicas() {
        assertThat(sealedBy(caller(Caller.Kind.API_KEY, "api-key", "key:alice"))
                .ownedBy(caller(Caller.Kind.API_KEY, "api-key", "key:alice"))).isTrue();
    }

    @Test
    void aTokenRepeatingAnApiKeysIssuerAndSubjectDoesNotOwnItsSession() {
        SealedSession session = sealedBy(caller(Caller.Kind.API_KEY, "api-key", "key:alice"));

        assertThat(session.ownedBy(caller(Caller.Kind.JWT, "api-key", "key:alice"))).isFalse();
        assertThat(session.ownedBy(caller(Caller.Kind.INTROSPECTED, "api-key", "key:alice"))).isFalse();
    }
}
