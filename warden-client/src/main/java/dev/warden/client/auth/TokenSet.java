package dev.warden.client.auth;

import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/** The tokens the client holds. Never logged and never in a message. */
record TokenSet(String accessToken, Optional<String> refreshToken, Optional<Instant> expiresAt, Set<String> scopes) {

    TokenSet {
        scopes = Set.copyOf(scopes);
    }

    String header() {
        return "Bearer " + accessToken;
    }

    /** Expired, or about to (a token sent in its last seconds may arrive expired). */
    boolean stale(Instant now) {
        return expiresAt.map(at -> !now.isBefore(at.minusSeconds(30))).orElse(false);
    }

    @Override
    public String toString() {
        return "TokenSet[scopes=" + scopes + "]";
    }
}
