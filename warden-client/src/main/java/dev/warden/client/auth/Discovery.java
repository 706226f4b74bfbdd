package dev.warden.client.auth;

import dev.warden.core.oauth.MetadataDiscovery;
import dev.warden.core.oauth.WellKnown;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Finds who authorizes for an MCP server: its protected resource metadata (from the challenge's
 * {@code resource_metadata}, else {@link WellKnown#protectedResource}), then the authorization
 * server's metadata (core's {@link MetadataDiscovery}: OAuth then OpenID locations, path-aware,
 * issuer checked), or, without resource metadata (2025-03-26), the server's own origin. A
 * location that cannot be reached ends the search: the locations share one origin.
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
        URI origin = WellKnown.origin(endpoint);
        List<URI> candidates = resourceMetadataUrl.flatMap(Endpoints::parse).map(List::of)
                .orElseGet(() -> WellKnown.protectedResource(endpoint));
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
            Optional<ServerMetadata> metadata = document(origin.resolve(WellKnown.AUTHORIZATION_SERVER))
                    .flatMap(ServerMetadata::of);
            return new Found(Optional.empty(), metadata.orElseGet(() -> ServerMetadata.defaults(origin)));
        }
        if (!Endpoints.covers(resource.get().resource(), endpoint)) {
            throw new AuthorizationStepException("the protected resource metadata is for another resource");
        }
        URI issuer = resource.get().authorizationServers().get(0);
        return switch (MetadataDiscovery.authorizationServer(issuer, this::document, ServerMetadata::of)) {
            case MetadataDiscovery.Outcome.Found<ServerMetadata> found -> new Found(resource, found.metadata());
            case MetadataDiscovery.Outcome.OtherIssuer<ServerMetadata> other ->
                    throw new AuthorizationStepException("the authorization server's metadata names another issuer");
            case MetadataDiscovery.Outcome.Absent<ServerMetadata> absent ->
                    throw new AuthorizationStepException("no authorization server metadata was found");
        };
    }

    private Optional<JsonNode> document(URI uri) {
        return document(http, uri);
    }

    /** The JSON object at {@code uri} if it answers 200 with one; a server that cannot be reached throws. */
    static Optional<JsonNode> document(AuthHttp http, URI uri) {
        AuthHttp.Reply reply = http.get(uri, "application/json");
        return reply.status() == 200 ? reply.json() : Optional.empty();
    }
}
