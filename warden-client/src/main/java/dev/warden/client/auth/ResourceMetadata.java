package dev.warden.client.auth;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/** OAuth 2.0 Protected Resource Metadata (RFC 9728): which authorization servers guard the MCP server. */
record ResourceMetadata(URI resource, List<URI> authorizationServers, List<String> scopesSupported) {

    ResourceMetadata {
        authorizationServers = List.copyOf(authorizationServers);
        scopesSupported = List.copyOf(scopesSupported);
        if (authorizationServers.isEmpty()) {
            throw new IllegalArgumentException("authorization_servers must name at least one secure URL");
        }
    }

    /** Empty when the document lacks a usable {@code resource} or authorization server. */
    static Optional<ResourceMetadata> of(JsonNode json) {
        Optional<URI> resource = Endpoints.parse(json.path("resource").asString(""));
        List<URI> servers = new ArrayList<>();
        json.path("authorization_servers").valueStream()
                .forEach(s -> Endpoints.parse(s.asString("")).ifPresent(servers::add));
        if (resource.isEmpty() || servers.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ResourceMetadata(resource.get(), servers, strings(json.path("scopes_supported"))));
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.valueStream().filter(JsonNode::isString).map(JsonNode::stringValue).filter(s -> !s.isBlank())
                .forEach(out::add);
        return out;
    }
}
