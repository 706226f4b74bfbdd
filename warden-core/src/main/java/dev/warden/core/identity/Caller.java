package dev.warden.core.identity;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Who is calling, as an {@link Authenticator} established it from a credential the client could
 * not forge: an access token's claims, or a named API key. Limits, sessions, audit records and
 * authorization rules follow it, never a name the client gives itself.
 *
 * @param subject  who the credential speaks for: the token's {@code sub}, or {@code key:NAME} for an API key
 *                 (a namespace tokens cannot claim: the resource server refuses a token whose sub is in it)
 * @param clientId the OAuth client the token was issued to ({@code client_id} or {@code azp}), when known
 * @param issuer   who vouched for it: the token's {@code iss}, or {@code api-key}
 * @param scopes   what it may do
 * @param claims   the token's other claims, JSON values (strings, numbers, booleans, lists, maps), for rules
 * @param kind     how it was established
 * @param token    the credential itself, for an RFC 8693 exchange only; never printed, never forwarded
 */
public record Caller(String subject, Optional<String> clientId, String issuer, Set<String> scopes,
                     Map<String, Object> claims, Kind kind, Optional<PresentedToken> token) {

    public enum Kind { JWT, INTROSPECTED, API_KEY }

    public Caller {
        if (subject == null || subject.isEmpty()) {
            throw new IllegalArgumentException("a caller needs a subject");
        }
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(issuer, "issuer");
        scopes = Set.copyOf(scopes);
        claims = Map.copyOf(claims);
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(token, "token");
    }

    /** Whether every one of {@code needed} is among this caller's scopes. */
    public boolean hasScopes(Set<String> needed) {
        return scopes.containsAll(needed);
    }

    /** The same caller without the credential, for what outlives the request (records, sessions). */
    public Caller withoutToken() {
        return token.isEmpty() ? this : new Caller(subject, clientId, issuer, scopes, claims, kind, Optional.empty());
    }

    /**
     * Whether {@code other} is the same principal: same kind, issuer and subject. A session opened by
     * one is another's only if all three are, so a token repeating an API key's subject is not the key.
     */
    public boolean samePrincipal(Caller other) {
        return kind == other.kind && subject.equals(other.subject) && issuer.equals(other.issuer);
    }
}
