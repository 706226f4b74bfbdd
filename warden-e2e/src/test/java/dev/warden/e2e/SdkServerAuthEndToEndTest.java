package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * A server built with Warden's SDK is a compliant OAuth 2.1 resource server with no gateway in
 * front: {@code warden demo --http 0 --auth FILE} (issuer = a real authorization server, resource =
 * its own URL). The TypeScript SDK's client, holding no credentials, discovers it, registers,
 * authorizes with PKCE and calls a demo tool directly.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SdkServerAuthEndToEndTest {

    static final String INITIALIZE = GatewayTokenExchangeEndToEndTest.INITIALIZE;

    AuthorizationServer as;
    DemoOverHttp demo;
    OAuthClientRun run;

    @BeforeAll
    void start() throws Exception {
        as = AuthorizationServer.start();
        demo = DemoOverHttp.start("""
                issuers:
                  - issuer: %s
                scopes: [mcp:tools]
                """.formatted(as.issuer()));
        run = OAuthClientRun.basic(demo.url(), "fetch_document", "{\"id\":\"doc-1\"}");
    }

    @AfterAll
    void stop() throws Exception {
        if (demo != null) {
            demo.stop();
        }
        if (as != null) {
            as.close();
        }
    }

    @Test
    void theSdkClientAuthorizesItselfAndCallsADemoToolDirectly() {
        assertThat(run.completed()).as(run.toString()).isTrue();
        JsonNode call = run.first("call");
        assertThat(call.get("tool").asString()).isEqualTo("fetch_document");
        assertThat(call.get("isError").asBoolean()).as(call.toString()).isFalse();
        assertThat(call.at("/content/0/text").asString()).isNotBlank();
        assertThat(run.first("tools").get("names").valueStream().map(JsonNode::asString))
                .contains("fetch_document", "create_user");
    }

    @Test
    void theClientWasChallengedThenFoundTheServersMetadataAndItsAuthorizationServer() {
        JsonNode challenge = run.first("challenge");
        assertThat(challenge.get("status").asInt()).isEqualTo(401);
        assertThat(challenge.get("scope").asString()).isEqualTo("mcp:tools");
        JsonNode metadata = run.first("resourceMetadata");
        assertThat(metadata.get("resource").asString()).isEqualTo(demo.url());
        assertThat(metadata.get("authorizationServers").valueStream().map(JsonNode::asString))
                .containsExactly(as.issuer());
        assertThat(run.first("authorizationServerMetadata").get("issuer").asString()).isEqualTo(as.issuer());
    }

    @Test
    void theClientRegisteredAndAuthorizedWithPkceForTheServerAsResource() {
        assertThat(run.first("registered").get("clientId").asString()).as(run.toString()).isNotBlank();
        JsonNode authorize = run.first("authorize");
        assertThat(authorize.get("codeChallengeMethod").asString()).isEqualTo("S256");
        assertThat(authorize.get("resource").asString()).isEqualTo(demo.url());
        assertThat(run.first("tokens").get("tokenType").asString()).isEqualToIgnoringCase("bearer");
    }

    @Test
    void aRequestWithoutATokenIsRefused401WithTheChallenge() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(demo.url()))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE)));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(401);
        String challenge = response.headers().firstValue("WWW-Authenticate").orElse("");
        assertThat(challenge).startsWith("Bearer ").contains("scope=\"mcp:tools\"")
                .contains("resource_metadata=\"" + metadataUrl() + "\"").doesNotContain("error=");
    }

    @Test
    void theProtectedResourceMetadataIsServed() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(metadataUrl())).GET());

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode metadata = Json.mapper().readTree(response.body());
        assertThat(metadata.get("resource").asString()).isEqualTo(demo.url());
        assertThat(metadata.get("authorization_servers").valueStream().map(JsonNode::asString))
                .containsExactly(as.issuer());
        assertThat(metadata.get("scopes_supported").valueStream().map(JsonNode::asString)).contains("mcp:tools");
    }

    /** RFC 9728: the well-known path inserted before the resource's own path ({@code /mcp}). */
    private String metadataUrl() {
        URI resource = URI.create(demo.url());
        return resource.getScheme() + "://" + resource.getRawAuthority() + "/.well-known/oauth-protected-resource"
                + resource.getRawPath();
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return HttpClient.newHttpClient().send(request.timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
