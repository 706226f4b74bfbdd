package dev.warden.client.auth;

import dev.warden.core.json.Json;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Who this client is to an authorization server: pre-registered, a client ID metadata document
 * (SEP-991) where the server supports them, or registered dynamically, once per token endpoint.
 */
final class Registration {

    private final AuthHttp http;
    private final String clientName;
    private final URI redirectUri;
    private final Optional<URI> clientMetadataUrl;
    private final Optional<ClientCredentials> preRegistered;
    private final Map<String, ClientCredentials> registrations = new HashMap<>();

    Registration(AuthHttp http, String clientName, URI redirectUri, Optional<URI> clientMetadataUrl,
                 Optional<ClientCredentials> preRegistered) {
        this.http = http;
        this.clientName = clientName;
        this.redirectUri = redirectUri;
        this.clientMetadataUrl = clientMetadataUrl;
        this.preRegistered = preRegistered;
    }

    ClientCredentials client(ServerMetadata server) {
        if (preRegistered.isPresent()) {
            return preRegistered.get();
        }
        if (clientMetadataUrl.isPresent() && server.clientIdMetadataDocuments()) {
            return new ClientCredentials(clientMetadataUrl.get().toString(), Optional.empty(), Optional.of(OAuth.NONE));
        }
        ClientCredentials known = registrations.get(server.tokenEndpoint().toString());
        if (known != null) {
            return known;
        }
        URI registration = server.registrationEndpoint().orElseThrow(() -> new AuthorizationStepException(
                "the authorization server offers no dynamic registration and no client id is configured"));
        ObjectNode body = Json.object();
        body.put("client_name", clientName);
        body.putArray("redirect_uris").add(redirectUri.toString());
        body.putArray("grant_types").add("authorization_code").add("refresh_token");
        body.putArray("response_types").add("code");
        body.put("token_endpoint_auth_method", registrationMethod(server));
        body.put("application_type", applicationType(redirectUri));
        clientMetadataUrl.ifPresent(u -> body.put("client_uri", u.toString()));
        AuthHttp.Reply reply = http.postJson(registration, body);
        JsonNode json = reply.json().orElse(null);
        if (reply.status() / 100 != 2 || json == null || !json.path("client_id").isString()
                || json.path("client_id").stringValue().isEmpty()) {
            throw new AuthorizationStepException("dynamic client registration was refused"
                    + OAuth.code(json == null ? null : json.path("error").asString(null)));
        }
        ClientCredentials registered = new ClientCredentials(json.path("client_id").stringValue(),
                OAuth.text(json, "client_secret"), OAuth.text(json, "token_endpoint_auth_method"));
        registrations.put(server.tokenEndpoint().toString(), registered);
        return registered;
    }

    /**
     * SEP-837 / OpenID Registration: "web" for a redirect to a remote HTTPS site; "native" for a
     * loopback redirect or an application's own scheme.
     */
    static String applicationType(URI redirect) {
        String scheme = redirect.getScheme().toLowerCase(java.util.Locale.ROOT);
        boolean remoteWeb = (scheme.equals("https") || scheme.equals("http")) && redirect.getHost() != null
                && !Endpoints.loopback(redirect.getHost());
        return remoteWeb ? "web" : "native";
    }

    /** A public client where the server allows it (a native app cannot keep a secret); else a secret. */
    private static String registrationMethod(ServerMetadata server) {
        List<String> offered = server.tokenEndpointAuthMethods();
        return offered.contains(OAuth.NONE) ? OAuth.NONE : offered.contains(OAuth.BASIC) ? OAuth.BASIC
                : offered.contains(OAuth.POST) ? OAuth.POST : OAuth.NONE;
    }
}
