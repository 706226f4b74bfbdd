package dev.warden.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.identity.Authenticator;
import org.junit.jupiter.api.Test;

/** What a router in front of other handlers (an application's Jetty) hands to the MCP endpoint. */
class McpHttpHandlerRoutingTest {

    private static final Authenticator NOBODY = new NobodyAuthenticator();

    @Test
    void anEndpointThatAuthenticatesNobodyLeavesTheMetadataPathToTheApplication() {
        try (McpHttpHandler open = McpHttpServer.builder().onSession(t -> { }).buildHandler()) {
            assertThat(open.serves("/mcp")).isTrue();
            assertThat(open.serves("/.well-known/oauth-protected-resource")).isFalse();
            assertThat(open.serves("/.well-known/oauth-protected-resource/mcp")).isFalse();
            assertThat(open.serves("/api/orders")).isFalse();
        }
    }

    @Test
    void anAuthenticatingEndpointServesItsMetadataInTheRootAndThePathForm() {
        try (McpHttpHandler guarded = McpHttpServer.builder().authenticator(NOBODY).onSession(t -> { })
                .buildHandler()) {
            assertThat(guarded.serves("/mcp")).isTrue();
            assertThat(guarded.serves("/.well-known/oauth-protected-resource")).isTrue();
            assertThat(guarded.serves("/.well-known/oauth-protected-resource/mcp")).isTrue();
            assertThat(guarded.serves("/.well-known/oauth-protected-resource/other")).isFalse();
        }
    }
}
