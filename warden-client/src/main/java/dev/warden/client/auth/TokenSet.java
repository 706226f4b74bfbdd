package dev.warden.client.auth;

import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/** The tokens the client holds. Never logged and never in a message. */
record TokenSet(String accessToken, Optional<String> refreshToken, Optional<Instant> expiresAt, Set<String> scopes) {

    TokenSet {
        scopes = Set.copyOf(scopes);
    }

    /**
     * What a token endpoint issued (RFC 6749 section 5.1), or why not; the error code only when it
     * is one of the RFC's own words, never the server's description.
     *
     * @param requested the scopes asked for: granted unless the answer names others
     */
    static TokenSet issued(AuthHttp.Reply reply, Set<String> requested, Optional<String> previousRefresh, Instant now) {
        JsonNode json = reply.json().orElse(null);
        if (reply.status() != 200 || json == null) {
            throw new AuthorizationStepException("the token endpoint refused the request"
                    + OAuth.code(json == null ? null : json.path("error").asString(null)));
        }
        Optional<String> access = OAuth.text(json, "access_token");
        if (access.isEmpty()) {
            throw new AuthorizationStepException("the token endpoint's answer carries no access token");
        }
        if (json.path("token_type").isString() && !json.path("token_type").stringValue().equalsIgnoreCase("bearer")) {
            throw new AuthorizationStepException("the token endpoint issued a token type other than Bearer");
        }
        Optional<Instant> expires = json.path("expires_in").isNumber() && json.path("expires_in").asLong() > 0
                ? Optional.of(now.plusSeconds(json.path("expires_in").asLong())) : Optional.empty();
        Set<String> scopes = new LinkedHashSet<>(OAuth.text(json, "scope")
                .map(s -> Arrays.asList(s.trim().split(" +"))).orElse(List.copyOf(requested)));
        scopes.remove("");
        return new TokenSet(access.get(), OAuth.text(json, "refresh_token").or(() -> previousRefresh), expires, scopes);
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
