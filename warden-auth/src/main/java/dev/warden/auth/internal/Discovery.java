package dev.warden.auth.internal;

import java.io.IOException;
import java.net.URI;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;

/**
 * An issuer's authorization server metadata, found as RFC 8414 asks (the well-known suffix inserted
 * before the issuer's path), then where OpenID Connect Discovery puts it (appended to the path).
 * Fetched once, on the first token that needs it, not at start-up: a gateway must start while its
 * authorization server is still starting. A failure is remembered for {@link #RETRY_AFTER_MS} so
 * a stream of tokens naming a down issuer costs one attempt per interval, not one per request.
 */
public final class Discovery {

    static final long RETRY_AFTER_MS = 10_000;

    /** What the resource server needs from the metadata. */
    public record Metadata(Optional<URI> jwksUri, Optional<URI> introspectionEndpoint) {
    }

    private final URI issuer;
    private final Http http;
    private final InstantSource clock;
    private volatile Metadata found;
    private volatile long failedAt = Long.MIN_VALUE;
    private volatile String failure = "";

    public Discovery(URI issuer, Http http, InstantSource clock) {
        this.issuer = issuer;
        this.http = http;
        this.clock = clock;
    }

    /** The two places metadata may be, in the order they are tried. */
    public static URI[] locations(URI issuer) {
        String root = issuer.getScheme() + "://" + issuer.getRawAuthority();
        String path = issuer.getRawPath() == null ? "" : issuer.getRawPath();
        if (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return new URI[] {
            URI.create(root + "/.well-known/oauth-authorization-server" + path),
            URI.create(root + path + "/.well-known/openid-configuration")};
    }

    public Metadata metadata() throws IOException {
        Metadata m = found;
        if (m != null) {
            return m;
        }
        synchronized (this) {
            if (found != null) {
                return found;
            }
            long now = clock.millis();
            if (failedAt != Long.MIN_VALUE && now - failedAt < RETRY_AFTER_MS) {
                throw new IOException(failure + " (not retried for " + RETRY_AFTER_MS / 1000 + " s)");
            }
            try {
                found = fetch();
                return found;
            } catch (IOException e) {
                failedAt = now;
                failure = e.getMessage();
                throw e;
            }
        }
    }

    private Metadata fetch() throws IOException {
        StringBuilder tried = new StringBuilder();
        for (URI at : locations(issuer)) {
            Map<String, Object> doc;
            try {
                doc = http.getJson(at);
            } catch (IOException e) {
                tried.append(tried.isEmpty() ? "" : "; ").append(e.getMessage());
                continue;
            }
            // RFC 8414 section 3.3: the metadata must name the issuer it was asked for, or an
            // attacker able to serve it could swap in its own keys.
            if (!issuer.toString().equals(doc.get("issuer"))) {
                throw new IOException("the metadata at " + at + " names another issuer than " + issuer);
            }
            return new Metadata(uri(doc.get("jwks_uri"), at), uri(doc.get("introspection_endpoint"), at));
        }
        throw new IOException("no metadata for issuer " + issuer + ": " + tried);
    }

    private static Optional<URI> uri(Object value, URI from) throws IOException {
        if (value == null) {
            return Optional.empty();
        }
        try {
            URI u = URI.create(String.valueOf(value));
            if (u.getScheme() == null || !u.getScheme().startsWith("http")) {
                throw new IllegalArgumentException("not http(s)");
            }
            return Optional.of(u);
        } catch (IllegalArgumentException e) {
            throw new IOException("the metadata at " + from + " holds an endpoint that is not an http(s) URL");
        }
    }
}
