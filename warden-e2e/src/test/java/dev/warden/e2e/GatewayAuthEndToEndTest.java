package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * {@code warden gateway} as an OAuth resource server (issue 16) in front of server-everything, with
 * a real authorization server (oidc-provider) and the TypeScript SDK's own OAuth client: discovery,
 * registration, PKCE and step-up through the gateway; every route behind the challenge; sessions
 * owned by whoever opened them; the caller in the audit. Each test speaks as a subject of its own,
 * so they share one authorization server and one gateway.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayAuthEndToEndTest {

    static final String METRICS_TOKEN = "metrics-e2e-secret";

    AuthorizationServer as;
    HttpGateway gateway;
    String metadataUrl;
    String origin;

    @BeforeAll
    void start() throws Exception {
        as = AuthorizationServer.start();
        gateway = HttpGateway.start("""
                http: { port: 0 }
                metrics: { port: 0, token: %s }
                auth:
                  issuers:
                    - issuer: %s
                  scopes: [mcp:tools]
                  toolScopes:
                    get-env: [mcp:admin]
                upstreams:
                  everything:
                    command: [%s, %s, stdio]
                """.formatted(METRICS_TOKEN, as.issuer(), Processes.NODE, WardenClientWithServerEverythingTest.SERVER),
                1);
        origin = gateway.url().substring(0, gateway.url().indexOf("/mcp"));
        metadataUrl = origin + "/.well-known/oauth-protected-resource/mcp";
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

    private String challenge() {
        return "Bearer resource_metadata=\"" + metadataUrl + "\", scope=\"mcp:tools\"";
    }

    private Map<String, String> tokenFor(String subject) throws Exception {
        return AuthedHttp.bearer(as.tokenWith(Map.of("aud", gateway.url(), "sub", subject)));
    }

    @Test
    void theSdkClientDiscoversRegistersAuthorizesWithPkceAndCallsAToolThroughTheGateway() throws Exception {
        OAuthClientRun run = OAuthClientRun.run(Map.of("LOGIN_HINT", "alice"), gateway.url(), "basic", "echo",
                "{\"message\":\"through warden\"}");

        assertThat(run.completed()).as(run.toString()).isTrue();
        JsonNode challenge = run.first("challenge");
        assertThat(challenge.get("status").asInt()).isEqualTo(401);
        assertThat(challenge.get("resourceMetadata").asString()).isEqualTo(metadataUrl);
        assertThat(challenge.get("scope").asString()).isEqualTo("mcp:tools");
        JsonNode resource = run.first("resourceMetadata");
        assertThat(resource.get("resource").asString()).isEqualTo(gateway.url());
        assertThat(resource.get("authorizationServers").valueStream().map(JsonNode::asString).toList())
                .containsExactly(as.issuer());
        assertThat(run.first("authorizationServerMetadata").get("issuer").asString()).isEqualTo(as.issuer());
        assertThat(run.first("registered").get("clientId").asString()).isNotEmpty();
        JsonNode authorize = run.first("authorize");
        assertThat(authorize.get("codeChallengeMethod").asString()).isEqualTo("S256");
        assertThat(authorize.get("resource").asString()).isEqualTo(gateway.url());
        assertThat(run.first("tokens").get("tokenType").asString()).isEqualToIgnoringCase("bearer");
        assertThat(run.first("tools").get("names").valueStream().map(JsonNode::asString).toList())
                .contains("echo", "get-sum", "get-env");
        JsonNode call = run.first("call");
        assertThat(call.get("isError").asBoolean()).isFalse();
        assertThat(call.at("/content/0/text").asString()).isEqualTo("Echo: through warden");
    }

    @Test
    void aToolNeedingAScopeTheTokenLacksGets403AndTheClientStepsUpOnTheSameSession() throws Exception {
        OAuthClientRun run = OAuthClientRun.run(Map.of("LOGIN_HINT", "frank"), gateway.url(), "step-up", "echo",
                "{\"message\":\"first\"}", "get-env", "{}");

        assertThat(run.completed()).as(run.toString()).isTrue();
        JsonNode stepUp = run.all("challenge").getLast();
        assertThat(stepUp.get("status").asInt()).isEqualTo(403);
        assertThat(stepUp.get("error").asString()).isEqualTo("insufficient_scope");
        assertThat(stepUp.get("scope").asString()).isEqualTo("mcp:admin mcp:tools");
        assertThat(stepUp.get("resourceMetadata").asString()).isEqualTo(metadataUrl);
        assertThat(run.all("authorize")).hasSize(2);
        assertThat(run.all("authorize").getLast().get("scope").asString().split(" "))
                .containsExactlyInAnyOrder("mcp:admin", "mcp:tools");
        assertThat(run.all("call")).extracting(c -> c.get("tool").asString()).containsExactly("echo", "get-env");
        assertThat(run.all("call")).extracting(c -> c.get("isError").asBoolean()).containsOnly(false);
        assertThat(run.first("done").get("sessionId").asString())
                .isEqualTo(run.first("connected").get("sessionId").asString());
    }

    @Test
    void everyMcpRouteWithoutCredentialsGets401WithTheChallenge() throws Exception {
        String session = AuthedHttp.initialize(gateway.url(), tokenFor("ivan"), "routes");

        HttpResponse<String> post = AuthedHttp.post(gateway.url(), Map.of(), Optional.empty(),
                AuthedHttp.initializeBody("anonymous"));
        var get = AuthedHttp.get(gateway.url(), Map.of(), Optional.of(session), Map.of());
        HttpResponse<String> delete = AuthedHttp.delete(gateway.url(), Map.of(), Optional.of(session));

        for (HttpResponse<?> response : List.<HttpResponse<?>>of(post, get, delete)) {
            assertThat(response.statusCode()).as(response.request().method()).isEqualTo(401);
            assertThat(response.headers().allValues("WWW-Authenticate")).as(response.request().method())
                    .containsExactly(challenge());
        }
        assertThat(post.headers().firstValue("Mcp-Session-Id")).isEmpty();
        assertThat(Json.mapper().readTree(post.body()).at("/error/message").asString())
                .isEqualTo("Unauthorized: this server needs an access token; see the WWW-Authenticate header");
        // the session the refused DELETE named is still there for its owner
        assertThat(AuthedHttp.call(gateway.url(), tokenFor("ivan"), session, 2, "echo", "{\"message\":\"still\"}")
                .at("/result/content/0/text").asString()).isEqualTo("Echo: still");
    }

    @Test
    void theProtectedResourceMetadataIsPublicInThePathAndRootForms() throws Exception {
        for (String url : List.of(metadataUrl, origin + "/.well-known/oauth-protected-resource")) {
            HttpResponse<String> response = AuthedHttp.fetch(url, Map.of());

            assertThat(response.statusCode()).as(url).isEqualTo(200);
            JsonNode metadata = Json.mapper().readTree(response.body());
            assertThat(metadata.get("resource").asString()).as(url).isEqualTo(gateway.url());
            assertThat(metadata.get("authorization_servers").valueStream().map(JsonNode::asString).toList()).as(url)
                    .containsExactly(as.issuer());
            assertThat(metadata.get("scopes_supported").valueStream().map(JsonNode::asString).toList()).as(url)
                    .contains("mcp:tools", "mcp:admin");
        }
    }

    @Test
    void metricsNeedTheirOwnBearerToken() throws Exception {
        String line = Files.readString(gateway.peer().stderr).lines()
                .filter(l -> l.startsWith("warden gateway: metrics at ")).findFirst().orElseThrow();
        String metrics = line.substring(line.indexOf("http://")).strip();

        HttpResponse<String> without = AuthedHttp.fetch(metrics, Map.of());
        HttpResponse<String> withAnAccessToken = AuthedHttp.fetch(metrics, tokenFor("judy"));
        HttpResponse<String> with = AuthedHttp.fetch(metrics, AuthedHttp.bearer(METRICS_TOKEN));

        assertThat(without.statusCode()).isEqualTo(401);
        assertThat(withAnAccessToken.statusCode()).isEqualTo(401);
        assertThat(with.statusCode()).isEqualTo(200);
        assertThat(with.body()).contains("# TYPE");
    }

    @Test
    void anotherSubjectCannotUseASessionItsOwnerStillCan() throws Exception {
        String session = AuthedHttp.initialize(gateway.url(), tokenFor("grace"), "owner");

        HttpResponse<String> intruder = AuthedHttp.post(gateway.url(), tokenFor("heidi"), Optional.of(session),
                AuthedHttp.callBody(2, "echo", "{\"message\":\"mine now\"}"));

        assertThat(intruder.statusCode()).isEqualTo(404);
        assertThat(intruder.body()).doesNotContain("mine now");
        assertThat(AuthedHttp.call(gateway.url(), tokenFor("grace"), session, 3, "echo", "{\"message\":\"mine\"}")
                .at("/result/content/0/text").asString()).isEqualTo("Echo: mine");
    }

    @Test
    void anotherSubjectCannotResumeOrListenOnASessionItsOwnerStillCan() throws Exception {
        String session = AuthedHttp.initialize(gateway.url(), tokenFor("kate"), "owner");

        var listen = AuthedHttp.get(gateway.url(), tokenFor("leo"), Optional.of(session), Map.of());
        var resume = AuthedHttp.get(gateway.url(), tokenFor("leo"), Optional.of(session), Map.of("Last-Event-ID", "0"));

        assertThat(listen.statusCode()).isEqualTo(404);
        assertThat(resume.statusCode()).isEqualTo(404);
        assertThat(AuthedHttp.get(gateway.url(), tokenFor("kate"), Optional.of(session), Map.of()).statusCode())
                .isEqualTo(200);
    }

    @Test
    void anotherSubjectCannotDeleteASessionItsOwnerStillUses() throws Exception {
        String session = AuthedHttp.initialize(gateway.url(), tokenFor("mallory-owner"), "owner");

        HttpResponse<String> intruder = AuthedHttp.delete(gateway.url(), tokenFor("mallory"), Optional.of(session));

        assertThat(intruder.statusCode()).isEqualTo(404);
        assertThat(AuthedHttp.call(gateway.url(), tokenFor("mallory-owner"), session, 2, "echo", "{\"message\":\"alive\"}")
                .at("/result/content/0/text").asString()).isEqualTo("Echo: alive");
        assertThat(AuthedHttp.delete(gateway.url(), tokenFor("mallory-owner"), Optional.of(session)).statusCode())
                .isBetween(200, 204);
    }

    @Test
    void anOAuthCallersSubjectAndClientIdAreInTheAuditRecordOfItsCall() throws Exception {
        OAuthClientRun run = OAuthClientRun.run(Map.of("LOGIN_HINT", "erin"), gateway.url(), "basic", "get-sum",
                "{\"a\":2,\"b\":3}");
        assertThat(run.completed()).as(run.toString()).isTrue();
        String clientId = run.first("registered").get("clientId").asString();

        JsonNode record = AuthedHttp.auditRecord(gateway.dataDir(),
                r -> r.path("tool").asString("").equals("get-sum") && r.path("subject").asString("").equals("erin"));

        assertThat(record.get("method").asString()).isEqualTo("tools/call");
        assertThat(record.get("outcome").asString()).isEqualTo("OK");
        assertThat(record.get("clientId").asString()).isEqualTo(clientId);
    }
}
