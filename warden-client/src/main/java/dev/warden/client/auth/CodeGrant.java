package dev.warden.client.auth;

import dev.warden.core.error.TransportException;
import dev.warden.core.oauth.MetadataDiscovery;
import java.net.URI;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The authorization code grant for a client that runs on a server and signs a person in through
 * their browser (the gateway's console): the same request ({@link OAuth#authorizationRequest}: PKCE
 * S256, state, RFC 8707 resource) and token request ({@link OAuth#token}) as {@link OAuth}, split in
 * two because the browser comes back on another request. The issuer's metadata is discovered on
 * first use and kept (an authorization server that is down at start must not stop the gateway).
 * Failures are {@link TransportException}s whose message names the step, never a token or the
 * server's words.
 */
public final class CodeGrant {

    /** Where to send the browser, and what the callback needs back: kept server-side, never in the browser. */
    public record Pending(URI location, String state, String verifier) {
        public Pending {
            Objects.requireNonNull(location, "location");
            Objects.requireNonNull(state, "state");
            Objects.requireNonNull(verifier, "verifier");
        }

        @Override
        public String toString() {
            return "Pending[]"; // the verifier stays out of logs
        }
    }

    /** What the token endpoint issued: the access token and when it expires, if it said. */
    public record Issued(String accessToken, Optional<Instant> expiresAt) {
        public Issued {
            Objects.requireNonNull(accessToken, "accessToken");
            Objects.requireNonNull(expiresAt, "expiresAt");
        }

        @Override
        public String toString() {
            return "Issued[expiresAt=" + expiresAt + "]";
        }
    }

    private final URI issuer;
    private final ClientCredentials client;
    private final AuthHttp http = AuthHttp.ofDefaults();
    private final AtomicReference<ServerMetadata> server = new AtomicReference<>();

    /**
     * @param secret empty for a public client (PKCE alone), else a confidential one's secret
     */
    public CodeGrant(URI issuer, String clientId, Optional<String> secret) {
        this.issuer = Objects.requireNonNull(issuer, "issuer");
        if (clientId == null || clientId.isBlank()) {
            throw new IllegalArgumentException("the client id must not be empty");
        }
        this.client = new ClientCredentials(clientId, secret.filter(s -> !s.isEmpty()), Optional.empty());
    }

    public URI issuer() {
        return issuer;
    }

    /** A fresh authorization request: its own state and PKCE verifier. */
    public Pending begin(URI redirectUri, Set<String> scopes, URI resource) {
        ServerMetadata metadata = metadata();
        Pkce pkce = Pkce.create();
        String state = Pkce.random(16);
        return new Pending(OAuth.authorizationRequest(metadata, client.clientId(), redirectUri, state, pkce, scopes,
                Optional.of(resource)), state, pkce.verifier());
    }

    /** The code the browser brought back, exchanged for a token (the state already checked by the caller). */
    public Issued finish(String code, String verifier, URI redirectUri, URI resource, Instant now) {
        TokenSet issued = OAuth.token(http, metadata(), client,
                OAuth.codeForm(code, redirectUri, verifier, Optional.of(resource)), Set.of(), Optional.empty(), now);
        return new Issued(issued.accessToken(), issued.expiresAt());
    }

    /**
     * RFC 9207 for an answer that came back to the browser: true when its {@code iss} (empty when
     * absent) is the one this grant's server would send. Discovers the metadata if not yet known.
     */
    public boolean issuerAnswered(Optional<String> iss) {
        return issuerMatches(metadata(), iss);
    }

    /**
     * RFC 9207, in one place for both grants: an {@code iss} in the answer must be the metadata's
     * issuer, exactly; one the server promised ({@code authorization_response_iss_parameter_supported})
     * must be there.
     */
    static boolean issuerMatches(ServerMetadata server, Optional<String> iss) {
        return iss.isPresent() ? server.issuer().isPresent() && iss.equals(server.issuer()) : !server.issParameter();
    }

    private ServerMetadata metadata() {
        ServerMetadata known = server.get();
        if (known != null) {
            return known;
        }
        ServerMetadata found = switch (MetadataDiscovery.authorizationServer(issuer, uri -> Discovery.document(http, uri),
                ServerMetadata::of)) {
            case MetadataDiscovery.Outcome.Found<ServerMetadata> f -> f.metadata();
            case MetadataDiscovery.Outcome.OtherIssuer<ServerMetadata> other ->
                    throw new AuthorizationStepException("the authorization server's metadata names another issuer");
            case MetadataDiscovery.Outcome.Absent<ServerMetadata> absent ->
                    throw new AuthorizationStepException("no authorization server metadata was found");
        };
        if (!found.codeChallengeMethods().contains("S256")) {
            throw new AuthorizationStepException("the authorization server does not offer PKCE with S256");
        }
        server.compareAndSet(null, found);
        return found;
    }
}
