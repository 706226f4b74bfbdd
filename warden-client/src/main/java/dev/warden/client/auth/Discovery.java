package dev.warden.client.auth;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Finds who authorizes for an MCP server: its protected resource metadata (from the challenge's
 * {@code resource_metadata}, else the path-based then the root well-known URL), then the
 * authorization server's metadata (OAuth then OpenID locations, path-aware, issuer checked), or,
 * without resource metadata (2025-03-26), the server's own origin.
 */
final class Discovery {

    private static final System.Logger LOG = System.getLogger(Discovery.class.getName());

    /** The resource metadata, when the server has some, and the authorization server's metadata. */
    record Found(Optional<ResourceMetadata> resource, ServerMetadata server) {
    }

    private final AuthHttp http;

    Discovery(AuthHttp http) {
        this.http = http;
    }

    Found discover(URI endpoint, Optional<String> resourceMetadataUrl) {
        URI origin = Endpoints.origin(endpoint);
        List<URI> candidates = resourceMetadataUrl.flatMap(Endpoints::parse).map(List::of).orElseGet(() -> {
            String path = Endpoints.path(endpoint);
            URI root = origin.resolve("/.well-known/oauth-protected-resource");
            return path.isEmpty() ? List.of(root)
                    : List.of(URI.create(root + path), root);
        });
        Optional<ResourceMetadata> resource = Optional.empty();
        for (URI candidate : candidates) {
            resource = document(candidate).flatMap(ResourceMetadata::of);
            if (resource.isPresent()) {
                break;
            }
        }
        if (resource.isEmpty()) {
            // 2025-03-26: no resource metadata; the authorization server is the MCP server's origin.
            LOG.log(System.Logger.Level.DEBUG, "authorization: no resource metadata, using the server's origin");
            Optional<ServerMetadata> metadata = document(origin.resolve("/.well-known/oauth-authorization-server"))
                    .flatMap(ServerMetadata::of);
            return new Found(Optional.empty(), metadata.orElseGet(() -> ServerMetadata.defaults(origin)));
        }
        if (!Endpoints.covers(resource.get().resource(), endpoint)) {
            throw new AuthorizationStepException("the protected resource metadata is for another resource");
        }
        URI issuer = resource.get().authorizationServers().get(0);
        for (URI candidate : serverMetadataLocations(issuer)) {
            Optional<ServerMetadata> metadata = document(candidate).flatMap(ServerMetadata::of);
            if (metadata.isPresent()) {
                if (metadata.get().issuer().filter(issuer.toString()::equals).isEmpty()) {
                    throw new AuthorizationStepException("the authorization server's metadata names another issuer");
                }
                return new Found(resource, metadata.get());
            }
        }
        throw new AuthorizationStepException("no authorization server metadata was found");
    }

    /**
     * RFC 8414 and OpenID Connect Discovery locations, in the order the MCP spec gives: for an
     * issuer with a path, the well-known segment goes before the path (both kinds), then OpenID's
     * own form after it.
     */
    static List<URI> serverMetadataLocations(URI issuer) {
        URI origin = Endpoints.origin(issuer);
        String path = Endpoints.path(issuer);
        if (path.isEmpty()) {
            return List.of(origin.resolve("/.well-known/oauth-authorization-server"),
                    origin.resolve("/.well-known/openid-configuration"));
        }
        return List.of(URI.create(origin + "/.well-known/oauth-authorization-server" + path),
                URI.create(origin + "/.well-known/openid-configuration" + path),
                URI.create(origin + path + "/.well-known/openid-configuration"));
    }

    private Optional<JsonNode> document(URI uri) {
        AuthHttp.Reply reply = http.get(uri, "application/json");
        return reply.status() == 200 ? reply.json() : Optional.empty();
    }
}
