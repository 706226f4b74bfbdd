package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * {@code warden gateway} with an issuer that hands out opaque (reference) tokens for it, checked
 * by introspection (RFC 7662) with the gateway's own client credentials. The gateway's URL must be
 * known before the authorization server starts (it is configured with that resource as opaque),
 * so the gateway gets a free port picked in advance.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayOpaqueTokensEndToEndTest {

    AuthorizationServer as;
    HttpGateway gateway;
    String resource;

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @BeforeAll
    void start() throws Exception {
        int port = freePort();
        resource = "http://127.0.0.1:" + port + "/mcp";
        as = AuthorizationServer.start(AuthorizationServer.Resource.opaque(resource, "mcp:tools"));
        gateway = HttpGateway.start("""
                http: { port: %d }
                auth:
                  issuers:
                    - issuer: %s
                      introspection:
                        clientId: %s
                        clientSecret: %s
                  scopes: [mcp:tools]
                upstreams:
                  everything:
                    command: [%s, %s, stdio]
                """.formatted(port, as.issuer(), AuthorizationServer.INTROSPECTION_CLIENT_ID,
                AuthorizationServer.INTROSPECTION_CLIENT_SECRET, Processes.NODE,
                WardenClientWithServerEverythingTest.SERVER), 1);
        assertThat(gateway.url()).isEqualTo(resource);
    }

    @AfterAll
    void stop() throws Exception {
        if (gateway != null) {
            gateway.stop();
        }
        if (as != null) {
            as.close();
        }
    }

    @Test
    void anOpaqueTokenIsAdmittedAndItsSubjectIsInTheAudit() throws Exception {
        OAuthClientRun run = OAuthClientRun.run(Map.of("LOGIN_HINT", "quinn"), gateway.url(), "basic", "echo",
                "{\"message\":\"opaque\"}");

        assertThat(run.completed()).as(run.toString() + "\n" + java.nio.file.Files.readString(as.log())).isTrue();
        assertThat(run.first("call").at("/content/0/text").asString()).isEqualTo("Echo: opaque");
        JsonNode record = AuthedHttp.auditRecord(gateway.dataDir(),
                r -> r.path("tool").asString("").equals("echo") && r.path("subject").asString("").equals("quinn"));
        assertThat(record.get("clientId").asString()).isEqualTo(run.first("registered").get("clientId").asString());
    }

    @Test
    void aJunkOpaqueTokenIsRefusedWithTheFixedAnswer() throws Exception {
        HttpResponse<String> response = AuthedHttp.post(gateway.url(), AuthedHttp.bearer("not-a-token-it-issued"),
                Optional.empty(), AuthedHttp.initializeBody("junk"));

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().allValues("WWW-Authenticate")).containsExactly("Bearer error=\"invalid_token\", "
                + "resource_metadata=\"" + resource.replace("/mcp", "/.well-known/oauth-protected-resource/mcp")
                + "\", scope=\"mcp:tools\"");
        assertThat(Json.mapper().readTree(response.body()).at("/error/message").asString())
                .isEqualTo(GatewayAuthRefusalsEndToEndTest.MESSAGE);
        assertThat(response.body() + response.headers().map()).doesNotContain("not-a-token-it-issued");
        assertThat(AuthedHttp.incident(gateway.dataDir(),
                Json.mapper().readTree(response.body()).at("/error/data/ref").asString())).contains("not active");
    }
}
