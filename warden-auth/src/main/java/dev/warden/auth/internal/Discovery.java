package dev.warden.auth.internal;

import dev.warden.core.oauth.MetadataDiscovery;
import java.io.IOException;
import java.net.URI;
import java.time.InstantSource;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * An issuer's authorization server metadata, found by core's {@link MetadataDiscovery} (an
 * answer other than a 200 JSON object, or no answer, means the next location). Fetched once, on
 * the first token that needs it, not at start-up: a gateway must start while its authorization
 * server is still starting. A failure is remembered for {@link #RETRY_AFTER_MS} so
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
        return switch (MetadataDiscovery.authorizationServer(issuer, http::metadata, Optional::of)) {
            case MetadataDiscovery.Outcome.Found<JsonNode> found -> new Metadata(
                    uri(found.metadata().get("jwks_uri"), found.location()),
                    uri(found.metadata().get("introspection_endpoint"), found.location()));
            case MetadataDiscovery.Outcome.OtherIssuer<JsonNode> other ->
                    throw new IOException("the metadata at " + other.location() + " names another issuer than " + issuer);
            case MetadataDiscovery.Outcome.Absent<JsonNode> absent ->
                    throw new IOException("no metadata for issuer " + issuer + ": " + absent.failures());
        };
    }

    private static Optional<URI> uri(JsonNode value, URI from) throws IOException {
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        try {
            URI u = URI.create(value.isString() ? value.stringValue() : value.toString());
            if (u.getScheme() == null || !u.getScheme().startsWith("http")) {
                throw new IllegalArgumentException("not http(s)");
            }
            return Optional.of(u);
        } catch (IllegalArgumentException e) {
            throw new IOException("the metadata at " + from + " holds an endpoint that is not an http(s) URL");
        }
    }
}
