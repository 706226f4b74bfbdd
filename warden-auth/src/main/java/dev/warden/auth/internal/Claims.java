package dev.warden.auth.internal;

import dev.warden.core.identity.Caller;
import dev.warden.core.identity.PresentedToken;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A caller from a token's claims as JSON values (a verified JWT's, or an introspection answer):
 * scopes from {@code scope} (space separated, RFC 8693 and 9068) or {@code scp} (an array, as
 * some servers send), the client from {@code client_id} or {@code azp}, the rest kept for rules.
 */
public final class Claims {

    private static final Set<String> MAPPED = Set.of("sub", "iss", "scope", "scp", "client_id", "azp", "active");

    private Claims() {
    }

    public static Caller caller(Map<String, Object> claims, String subject, String issuer, Caller.Kind kind,
                                Optional<PresentedToken> token) {
        Map<String, Object> rest = new LinkedHashMap<>();
        claims.forEach((k, v) -> {
            if (v != null && !MAPPED.contains(k)) {
                rest.put(k, v);
            }
        });
        return new Caller(subject, clientId(claims), issuer, scopes(claims), rest, kind, token);
    }

    static Set<String> scopes(Map<String, Object> claims) {
        Set<String> out = new LinkedHashSet<>();
        if (claims.get("scope") instanceof String s) {
            for (String one : s.split(" ")) {
                if (!one.isEmpty()) {
                    out.add(one);
                }
            }
        }
        Object scp = claims.get("scp");
        if (scp instanceof Collection<?> c) {
            c.stream().filter(String.class::isInstance).map(String.class::cast).forEach(out::add);
        } else if (scp instanceof String s) {
            for (String one : s.split(" ")) {
                if (!one.isEmpty()) {
                    out.add(one);
                }
            }
        }
        return out;
    }

    static Optional<String> clientId(Map<String, Object> claims) {
        if (claims.get("client_id") instanceof String c && !c.isEmpty()) {
            return Optional.of(c);
        }
        if (claims.get("azp") instanceof String c && !c.isEmpty()) {
            return Optional.of(c);
        }
        return Optional.empty();
    }

    /** Whether the {@code aud} claim (a string or an array) holds one of {@code accepted}. */
    public static boolean audienceMatches(Object aud, Set<String> accepted) {
        if (aud instanceof String s) {
            return accepted.contains(s);
        }
        if (aud instanceof Collection<?> c) {
            return c.stream().anyMatch(accepted::contains);
        }
        return false;
    }
}
