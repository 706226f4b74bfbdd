package dev.warden.auth;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * How to introspect an issuer's opaque tokens (RFC 7662), authenticating with client_secret_basic.
 *
 * @param endpoint     the introspection endpoint; empty: the {@code introspection_endpoint} of the
 *                     issuer's discovered metadata
 * @param clientId     the resource server's client at the authorization server
 * @param clientSecret its secret (never printed)
 */
public record Introspection(Optional<URI> endpoint, String clientId, String clientSecret) {

    public Introspection {
        Objects.requireNonNull(endpoint, "endpoint");
        endpoint.ifPresent(e -> Issuer.requireHttp(e, "introspection endpoint"));
        if (clientId == null || clientId.isEmpty()) {
            throw new IllegalArgumentException("introspection needs a clientId");
        }
        if (clientSecret == null || clientSecret.isEmpty()) {
            throw new IllegalArgumentException("introspection needs a clientSecret");
        }
    }

    /** At the discovered endpoint. */
    public static Introspection of(String clientId, String clientSecret) {
        return new Introspection(Optional.empty(), clientId, clientSecret);
    }

    public static Introspection of(URI endpoint, String clientId, String clientSecret) {
        return new Introspection(Optional.of(endpoint), clientId, clientSecret);
    }

    @Override
    public String toString() {
        return "Introspection[endpoint=" + endpoint + ", clientId=" + clientId + ", clientSecret=***]";
    }
}
