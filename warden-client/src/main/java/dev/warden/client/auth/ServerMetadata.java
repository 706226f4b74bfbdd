package dev.warden.client.auth;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * What the client uses of an authorization server's metadata (RFC 8414, or OpenID Connect
 * Discovery). {@code codeChallengeMethods} empty means the server did not say it supports PKCE.
 * {@code issuer} is kept as the server wrote it: issuers are compared as exact strings (RFC 8414
 * §3.3, RFC 9207 §2.4), never normalized.
 */
record ServerMetadata(Optional<String> issuer, URI authorizationEndpoint, URI tokenEndpoint,
        Optional<URI> registrationEndpoint, List<String> codeChallengeMethods, List<String> tokenEndpointAuthMethods,
        boolean clientIdMetadataDocuments, boolean issParameter) {

    ServerMetadata {
        codeChallengeMethods = List.copyOf(codeChallengeMethods);
        tokenEndpointAuthMethods = List.copyOf(tokenEndpointAuthMethods);
    }

    /** Empty when an endpoint the flow needs is missing or not secure. */
    static Optional<ServerMetadata> of(JsonNode json) {
        Optional<URI> authorization = Endpoints.parse(json.path("authorization_endpoint").asString(""));
        Optional<URI> token = Endpoints.parse(json.path("token_endpoint").asString(""));
        if (authorization.isEmpty() || token.isEmpty()) {
            return Optional.empty();
        }
        List<String> authMethods = ResourceMetadata.strings(json.path("token_endpoint_auth_methods_supported"));
        String issuer = json.path("issuer").asString("");
        return Optional.of(new ServerMetadata(issuer.isEmpty() ? Optional.empty() : Optional.of(issuer), authorization.get(),
                token.get(), Endpoints.parse(json.path("registration_endpoint").asString("")),
                ResourceMetadata.strings(json.path("code_challenge_methods_supported")),
                authMethods.isEmpty() ? List.of("client_secret_basic") : authMethods, // RFC 8414's default
                json.path("client_id_metadata_document_supported").asBoolean(false),
                json.path("authorization_response_iss_parameter_supported").asBoolean(false)));
    }

    /**
     * The 2025-03-26 fallback when a server publishes no metadata at all: the default endpoints
     * at the server's origin. PKCE is assumed, as that version required it.
     */
    static ServerMetadata defaults(URI origin) {
        return new ServerMetadata(Optional.empty(), origin.resolve("/authorize"), origin.resolve("/token"),
                Optional.of(origin.resolve("/register")), List.of("S256"), List.of("client_secret_basic", "none"),
                false, false);
    }
}
