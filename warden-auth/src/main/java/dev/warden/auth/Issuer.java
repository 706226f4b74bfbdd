package dev.warden.auth;

import java.net.URI;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An authorization server whose access tokens the resource server accepts.
 *
 * @param issuer        its issuer identifier, exactly as its tokens' {@code iss} (and its metadata) say it
 * @param jwksUri       where its signing keys are; empty: discovered from its metadata (RFC 8414's
 *                      well-known location, then OpenID Connect's)
 * @param audiences     the {@code aud} values accepted (one is enough); empty: the resource's
 *                      canonical URI, as RFC 8707 and the MCP authorization spec ask
 * @param algorithms    the JWS algorithms accepted; default {@link #DEFAULT_ALGORITHMS}. Only
 *                      asymmetric ones ({@link #SUPPORTED_ALGORITHMS}): a resource server holds no
 *                      shared secret, and accepting HS256 would let a token be "signed" with the
 *                      public key. EdDSA is left out: nimbus verifies it only with Google Tink.
 * @param introspection how to ask about its opaque tokens; empty: it issues JWTs only
 */
public record Issuer(URI issuer, Optional<URI> jwksUri, Set<String> audiences, Set<String> algorithms,
                     Optional<Introspection> introspection) {

    /** RS256 (every server signs with it; the OpenID default) and ES256 (the common elliptic-curve one). */
    public static final Set<String> DEFAULT_ALGORITHMS = Set.of("RS256", "ES256");

    public static final Set<String> SUPPORTED_ALGORITHMS = Set.of(
            "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512");

    public Issuer {
        requireHttp(issuer, "issuer");
        if (issuer.getRawQuery() != null || issuer.getRawFragment() != null) {
            throw new IllegalArgumentException("an issuer has no query or fragment, got " + issuer);
        }
        Objects.requireNonNull(jwksUri, "jwksUri").ifPresent(u -> requireHttp(u, "jwksUri"));
        audiences = Set.copyOf(audiences);
        algorithms = Set.copyOf(algorithms);
        if (algorithms.isEmpty() || !SUPPORTED_ALGORITHMS.containsAll(algorithms)) {
            throw new IllegalArgumentException("algorithms must be some of " + SUPPORTED_ALGORITHMS + ", got " + algorithms);
        }
        Objects.requireNonNull(introspection, "introspection");
    }

    /** The issuer with everything else discovered or by default. */
    public static Issuer of(URI issuer) {
        return custom(issuer).build();
    }

    public static Builder custom(URI issuer) {
        return new Builder(issuer);
    }

    static URI requireHttp(URI uri, String what) {
        Objects.requireNonNull(uri, what);
        String scheme = uri.getScheme();
        if (!uri.isAbsolute() || uri.getHost() == null || !("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme))) {
            throw new IllegalArgumentException(what + " must be an http(s) URL, got " + uri);
        }
        return uri;
    }

    public static final class Builder {
        private final URI issuer;
        private Optional<URI> jwksUri = Optional.empty();
        private final Set<String> audiences = new LinkedHashSet<>();
        private Set<String> algorithms = DEFAULT_ALGORITHMS;
        private Optional<Introspection> introspection = Optional.empty();

        private Builder(URI issuer) {
            this.issuer = issuer;
        }

        public Builder jwksUri(URI uri) {
            this.jwksUri = Optional.of(requireHttp(uri, "jwksUri"));
            return this;
        }

        public Builder audience(String audience) {
            if (audience == null || audience.isEmpty()) {
                throw new IllegalArgumentException("an audience must not be empty");
            }
            audiences.add(audience);
            return this;
        }

        public Builder algorithms(Set<String> algorithms) {
            this.algorithms = Set.copyOf(algorithms);
            return this;
        }

        public Builder introspection(Introspection introspection) {
            this.introspection = Optional.of(introspection);
            return this;
        }

        public Issuer build() {
            return new Issuer(issuer, jwksUri, audiences, algorithms, introspection);
        }
    }
}
