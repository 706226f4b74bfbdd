package dev.warden.core.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import dev.warden.core.json.Json;

/** Where OAuth metadata is looked for, and the walk over those places (moved from the client's EndpointsTest). */
class WellKnownTest {

    @Test
    void serverMetadataIsSoughtInTheSpecsOrder() {
        assertThat(WellKnown.authorizationServer(URI.create("https://as.example/tenant1"))).containsExactly(
                URI.create("https://as.example/.well-known/oauth-authorization-server/tenant1"),
                URI.create("https://as.example/.well-known/openid-configuration/tenant1"),
                URI.create("https://as.example/tenant1/.well-known/openid-configuration"));
        assertThat(WellKnown.authorizationServer(URI.create("https://as.example/"))).containsExactly(
                URI.create("https://as.example/.well-known/oauth-authorization-server"),
                URI.create("https://as.example/.well-known/openid-configuration"));
    }

    @Test
    void resourceMetadataIsSoughtAtThePathFormThenTheRoot() {
        assertThat(WellKnown.protectedResource(URI.create("https://mcp.example/api/mcp/"))).containsExactly(
                URI.create("https://mcp.example/.well-known/oauth-protected-resource/api/mcp"),
                URI.create("https://mcp.example/.well-known/oauth-protected-resource"));
        assertThat(WellKnown.protectedResource(URI.create("https://mcp.example"))).containsExactly(
                URI.create("https://mcp.example/.well-known/oauth-protected-resource"));
    }

    @Test
    void aResourceServerPublishesAtItsPathAsConfigured() {
        assertThat(WellKnown.publishedProtectedResource(URI.create("http://127.0.0.1:8080/mcp")))
                .hasToString("http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp");
        // Unlike a client's guess, the server keeps a trailing slash: it answers on exactly this path.
        assertThat(WellKnown.publishedProtectedResource(URI.create("https://mcp.example/api/mcp/")))
                .hasToString("https://mcp.example/.well-known/oauth-protected-resource/api/mcp/");
        assertThat(WellKnown.publishedProtectedResource(URI.create("https://mcp.example/")))
                .hasToString("https://mcp.example/.well-known/oauth-protected-resource");
        assertThat(WellKnown.publishedProtectedResource(URI.create("http://[::1]:9/")))
                .hasToString("http://[::1]:9/.well-known/oauth-protected-resource");
    }

    @Test
    void theFirstUsableDocumentMustNameTheIssuerAskedFor() {
        URI issuer = URI.create("https://as.example/t");
        JsonNode unusable = Json.object().put("issuer", "https://evil.example");
        JsonNode other = Json.object().put("issuer", "https://evil.example").put("usable", true);
        JsonNode good = Json.object().put("issuer", "https://as.example/t").put("usable", true);
        Map<URI, JsonNode> docs = Map.of(
                URI.create("https://as.example/.well-known/oauth-authorization-server/t"), unusable,
                URI.create("https://as.example/.well-known/openid-configuration/t"), good);
        MetadataDiscovery.Fetch fetch = at -> Optional.ofNullable(docs.get(at));
        assertThat(MetadataDiscovery.authorizationServer(issuer, fetch, d -> Optional.of(d).filter(n -> n.has("usable"))))
                .isEqualTo(new MetadataDiscovery.Outcome.Found<>(
                        URI.create("https://as.example/.well-known/openid-configuration/t"), good));
        MetadataDiscovery.Fetch attacker = at -> Optional.of(other);
        assertThat(MetadataDiscovery.authorizationServer(issuer, attacker, Optional::of))
                .isInstanceOf(MetadataDiscovery.Outcome.OtherIssuer.class);
        MetadataDiscovery.Fetch down = at -> {
            throw new IOException(at + " down");
        };
        assertThat(MetadataDiscovery.authorizationServer(issuer, down, Optional::of))
                .isEqualTo(new MetadataDiscovery.Outcome.Absent<>(
                        "https://as.example/.well-known/oauth-authorization-server/t down; "
                        + "https://as.example/.well-known/openid-configuration/t down; "
                        + "https://as.example/t/.well-known/openid-configuration down"));
    }
}
