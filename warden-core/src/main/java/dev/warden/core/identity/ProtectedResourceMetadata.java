package dev.warden.core.identity;

import java.net.URI;
import java.util.List;
import java.util.Objects;

/**
 * RFC 9728 protected-resource metadata: what a client needs to find the authorization servers
 * for this resource. Served at {@code /.well-known/oauth-protected-resource} (and its path form).
 *
 * @param resource              the resource's canonical URI (RFC 8707), the audience its tokens must carry
 * @param authorizationServers  issuers whose tokens it accepts (empty for API keys alone)
 * @param scopesSupported       the scopes it knows
 */
public record ProtectedResourceMetadata(URI resource, List<URI> authorizationServers, List<String> scopesSupported) {

    public ProtectedResourceMetadata {
        Objects.requireNonNull(resource, "resource");
        authorizationServers = List.copyOf(authorizationServers);
        scopesSupported = List.copyOf(scopesSupported);
    }
}
