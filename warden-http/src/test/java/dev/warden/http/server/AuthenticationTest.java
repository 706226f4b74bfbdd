package dev.warden.http.server;

import static dev.warden.http.server.HttpPeer.INIT;
import static dev.warden.http.server.HttpPeer.jsonHeaders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.warden.core.identity.Authenticator;
import dev.warden.core.identity.Caller;
import dev.warden.core.identity.Credentials;
import dev.warden.core.identity.ProtectedResourceMetadata;
import dev.warden.core.identity.Verdict;
import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.incident.Incident;
import dev.warden.core.json.Json;
import dev.warden.core.transport.AuthenticatedPeer;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A server with an authenticator is an OAuth 2.1 resource server: every route refuses a request
 * without valid credentials with a fixed challenge, its metadata tells clients where to get a
 * token, a session belongs to whoever opened it, and a tool's own scopes are asked for by step-up.
 */
class AuthenticationTest {

    /** What the validator says about a bad token: for the operator only. */
    private static final String VALIDATOR_DETAIL = "Signed JWT rejected: kid k9 not in JWKS at http://10.0.0.7/jwks";

    private final List<Incident> incidents = new CopyOnWriteArrayList<>();
    private final List<Optional<Caller>> callersSeen = new CopyOnWriteArrayList<>();
    private McpHttpServer http;
    private HttpPeer peer;

    /** Tokens by value: alice (tools), alice stepped up (tools and admin), bob (tools); anything else invalid. */
    private static final class Tokens implements Authenticator {
        @Override
        public Verdict authenticate(Credentials credentials, URI resource) {
            if (credentials.authorization().isEmpty()) {
                return new Verdict.Refused(Verdict.Refusal.MISSING, Set.of(), "no Authorization header");
            }
            return switch (credentials.authorization().get()) {
                case "Bearer alice" -> admitted("alice", Set.of("mcp:tools"));
                case "Bearer alice-admin" -> admitted("alice", Set.of("mcp:tools", "mcp:admin"));
                case "Bearer bob" -> admitted("bob", Set.of("mcp:tools"));
                case "Bearer alice-odd" -> admitted("alice", Set.of("mcp:tools", "read:docs",
                        "x\", error=\"invalid_request", "two words"));
                default -> new Verdict.Refused(Verdict.Refusal.INVALID_TOKEN, Set.of(), VALIDATOR_DETAIL);
            };
        }

        private static Verdict admitted(String subject, Set<String> scopes) {
            return new Verdict.Admitted(new Caller(subject, Optional.of("app"), "https://as.example", scopes,
                    Map.of(), Caller.Kind.JWT, Optional.empty()));
        }

        @Override
        public ProtectedResourceMetadata metadata(URI resource) {
            return new ProtectedResourceMetadata(resource, List.of(URI.create("https://as.example")),
                    List.of("mcp:tools", "mcp:admin"));
        }

        @Override
        public Set<String> requiredScopes() {
            return Set.of("mcp:tools");
        }

        @Override
        public Set<String> scopesForTool(String tool) {
            return tool.startsWith("admin_") ? Set.of("mcp:admin") : Set.of();
        }
    }

    @BeforeEach
    void start() throws Exception {
        McpServer server = McpServer.builder("auth", "1").incidents(incidents::add)
                .tool(ToolSpec.builder("echo").handler(call -> ToolResult.text("echoed")).build())
                .tool(ToolSpec.builder("admin_reset").handler(call -> ToolResult.text("reset")).build())
                .tool(ToolSpec.builder("boom").handler(call -> {
                    throw new IllegalStateException("disk /var/lib/orders full");
                }).build())
                .build();
        http = McpHttpServer.builder().authenticator(new Tokens())
                .boundary(ErrorBoundary.builder().incidents(incidents::add).build())
                .onSession(transport -> {
                    callersSeen.add(((AuthenticatedPeer) transport).caller());
                    server.connect(transport);
                }).build().start();
        peer = new HttpPeer(http.endpoint());
    }

    @AfterEach
    void stop() {
        HttpPeer.closeAll();
        http.close();
    }

    @Test
    void everyRouteWithoutCredentialsGets401WithAChallengeNamingTheMetadataAndScopes() throws Exception {
        String expected = "Bearer resource_metadata=\"" + metadataUrl() + "\", scope=\"mcp:tools\"";
        for (HttpRequest.Builder request : List.of(
                peer.post(INIT, jsonHeaders()),
                HttpRequest.newBuilder(http.endpoint()).GET().header("Accept", "text/event-stream")
                        .header("Mcp-Session-Id", "x"),
                HttpRequest.newBuilder(http.endpoint()).DELETE().header("Mcp-Session-Id", "x"))) {
            HttpResponse<String> response = peer.send(request);

            assertThat(response.statusCode()).isEqualTo(401);
            assertThat(response.headers().allValues("WWW-Authenticate")).containsExactly(expected);
            JsonNode error = Json.mapper().readTree(response.body()).path("error");
            assertThat(error.path("message").asString()).startsWith("Unauthorized: this server needs an access token");
            assertThat(error.path("data").path("ref").asString()).isNotEmpty();
        }
        assertThat(callersSeen).isEmpty();
    }

    @Test
    void anInvalidTokenGetsTheFixedAnswerAndItsRefResolvesToTheValidatorsReason() throws Exception {
        HttpResponse<String> response = peer.send(withToken(peer.post(INIT, jsonHeaders()), "forged"));

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer error=\"invalid_token\", "
                + "resource_metadata=\"" + metadataUrl() + "\", scope=\"mcp:tools\"");
        assertThat(response.body()).doesNotContain("kid", "JWKS", "10.0.0.7", "forged");
        String ref = Json.mapper().readTree(response.body()).path("error").path("data").path("ref").asString();
        assertThat(incidents).anySatisfy(incident -> {
            assertThat(incident.ref().toString()).isEqualTo(ref);
            assertThat(incident.reason()).hasValueSatisfying(reason -> assertThat(reason).contains(VALIDATOR_DETAIL));
        });
    }

    @Test
    void theMetadataIsServedAtThePathFormAndTheRootForTheEndpointsUrl() throws Exception {
        for (String path : List.of("/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource")) {
            HttpResponse<String> response = peer.send(HttpRequest.newBuilder(http.endpoint().resolve(path)).GET());

            assertThat(response.statusCode()).isEqualTo(200);
            JsonNode metadata = Json.mapper().readTree(response.body());
            assertThat(metadata.path("resource").asString()).isEqualTo(http.endpoint().toString());
            assertThat(metadata.path("authorization_servers").get(0).asString()).isEqualTo("https://as.example");
            assertThat(metadata.path("scopes_supported").toString()).contains("mcp:tools", "mcp:admin");
        }
        assertThat(http.resource()).hasValue(http.endpoint());
    }

    @Test
    void theSessionKnowsWhoOpenedIt() throws Exception {
        initialize("alice");

        assertThat(callersSeen).singleElement().satisfies(caller ->
                assertThat(caller).hasValueSatisfying(c -> assertThat(c.subject()).isEqualTo("alice")));
    }

    @Test
    void anotherSubjectCannotUseResumeOrDeleteTheSession() throws Exception {
        String session = initialize("alice");

        HttpResponse<String> post = peer.send(withToken(peer.post(call(2, "echo"), headers(session)), "bob"));
        HttpResponse<String> get = peer.send(withToken(HttpRequest.newBuilder(http.endpoint()).GET()
                .header("Accept", "text/event-stream").header("Mcp-Session-Id", session)
                .header("MCP-Protocol-Version", "2025-11-25"), "bob"));
        HttpResponse<String> delete = peer.send(withToken(HttpRequest.newBuilder(http.endpoint()).DELETE()
                .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25"), "bob"));

        assertThat(List.of(post.statusCode(), get.statusCode(), delete.statusCode())).containsOnly(404);
        HttpResponse<String> own = peer.send(withToken(peer.post(call(3, "echo"), headers(session)), "alice"));
        assertThat(own.statusCode()).isEqualTo(200);
        assertThat(own.body()).contains("echoed");
    }

    @Test
    void aToolThatNeedsMoreScopesGets403NamingEveryScopeToAskForAndTheSteppedUpTokenCallsIt() throws Exception {
        String session = initialize("alice");

        HttpResponse<String> refused = peer.send(withToken(peer.post(call(2, "admin_reset"), headers(session)), "alice"));

        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.headers().firstValue("WWW-Authenticate")).hasValue("Bearer error=\"insufficient_scope\", "
                + "resource_metadata=\"" + metadataUrl() + "\", scope=\"mcp:admin mcp:tools\"");
        HttpResponse<String> steppedUp = peer.send(withToken(peer.post(call(3, "admin_reset"), headers(session)),
                "alice-admin"));
        assertThat(steppedUp.statusCode()).isEqualTo(200);
        assertThat(steppedUp.body()).contains("reset");
    }

    @Test
    void scopesFromTheTokenThatAreNotScopeTokensNeverReachTheChallenge() throws Exception {
        String session = initialize("alice-odd");

        HttpResponse<String> refused = peer.send(withToken(peer.post(call(2, "admin_reset"), headers(session)),
                "alice-odd"));

        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.headers().firstValue("WWW-Authenticate")).hasValue("Bearer error=\"insufficient_scope\", "
                + "resource_metadata=\"" + metadataUrl() + "\", scope=\"mcp:admin mcp:tools read:docs\"");
    }

    @Test
    void aFailureOfAnAuthenticatedCallersToolIsRecordedWithWhoMetIt() throws Exception {
        String session = initialize("alice");

        HttpResponse<String> failed = peer.send(withToken(peer.post(call(2, "boom"), headers(session)), "alice"));

        assertThat(failed.body()).contains("INTERNAL_ERROR").doesNotContain("alice", "/var/lib");
        assertThat(incidents).anySatisfy(incident -> {
            assertThat(failed.body()).contains(incident.ref().toString());
            assertThat(incident.subject()).hasValue("alice");
            assertThat(incident.clientId()).hasValue("app");
        });
    }

    @Test
    void authenticatedCallersAreCountedPerPrincipalSoOneCannotCloseAnothersSessionsFromTheSameAddress()
            throws Exception {
        http.close();
        McpServer server = McpServer.builder("capped", "1").incidents(incidents::add)
                .tool(ToolSpec.builder("echo").handler(call -> ToolResult.text("echoed")).build()).build();
        http = McpHttpServer.builder().authenticator(new Tokens()).maxSessions(100, 1).onSession(server::connect)
                .build().start();
        peer = new HttpPeer(http.endpoint());
        String alices = initialize("alice");

        initialize("bob");
        initialize("bob"); // bob's second: his own first makes room

        HttpResponse<String> stillOpen = peer.send(withToken(peer.post(call(2, "echo"), headers(alices)), "alice"));
        assertThat(stillOpen.statusCode()).isEqualTo(200);
        assertThat(http.sessionCount()).isEqualTo(2);
    }

    @Test
    void twoAuthorizationHeadersGet400InvalidRequestWhicheverComesFirst() throws Exception {
        for (List<String> tokens : List.of(List.of("alice", "bob"), List.of("alice", "alice"), List.of("forged", "alice"))) {
            HttpResponse<String> response = peer.send(withToken(withToken(peer.post(INIT, jsonHeaders()),
                    tokens.get(0)), tokens.get(1)));

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(challenge ->
                    assertThat(challenge).startsWith("Bearer error=\"invalid_request\""));
        }
        assertThat(callersSeen).isEmpty();
    }

    @Test
    void aRefusalForMissingScopesCarriesTheRequestsId() throws Exception {
        String session = initialize("alice");

        HttpResponse<String> refused = peer.send(withToken(peer.post(call(42, "admin_reset"), headers(session)), "alice"));

        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(Json.mapper().readTree(refused.body()).path("id").asInt()).isEqualTo(42);
    }

    @Test
    void aRefusedCredentialGetsItsErrorWithTheRequestsIdWhenTheBodyHasOne() throws Exception {
        HttpResponse<String> invalid = peer.send(withToken(peer.post(call(7, "echo"), jsonHeaders()), "forged"));
        HttpResponse<String> missing = peer.send(peer.post(call(8, "echo"), jsonHeaders()));
        HttpResponse<String> notJson = peer.send(withToken(peer.post("{\"id\":9,", jsonHeaders()), "forged"));

        assertThat(invalid.statusCode()).isEqualTo(401);
        assertThat(Json.mapper().readTree(invalid.body()).path("id").asInt()).isEqualTo(7);
        assertThat(missing.statusCode()).isEqualTo(401);
        assertThat(Json.mapper().readTree(missing.body()).path("id").asInt()).isEqualTo(8);
        assertThat(notJson.statusCode()).isEqualTo(401);
        assertThat(Json.mapper().readTree(notJson.body()).path("id").isNull()).isTrue();
    }

    /**
     * With {@code Expect: 100-continue} the server asks for a body only when it starts reading it: a
     * 401 as the first answer, with no 100 before it, shows the body was never read.
     */
    @Test
    void aRefusedPostWithALargeOrUndeclaredBodyIsAnsweredAtOnceWithoutReadingIt() {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (String length : List.of("Content-Length: 100000", "Content-Length: 4097",
                    "Transfer-Encoding: chunked")) {
                try (Socket socket = new Socket()) {
                    socket.connect(new InetSocketAddress("127.0.0.1", http.port()));
                    socket.setSoTimeout(20_000); // bounds a failure only
                    socket.getOutputStream().write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + http.port()
                            + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                            + "Expect: 100-continue\r\n" + length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));

                    String answer = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);

                    assertThat(answer).as(length).isEqualTo("HTTP/1.1 401");
                }
            }
        });
    }

    @Test
    void aRefusedPostBeyondFourKibibytesGetsTheNullIdItsBodyIsNotReadFor() throws Exception {
        String padded = call(7, "echo").replace("\"arguments\":{}", "\"arguments\":{\"pad\":\"" + "x".repeat(5000) + "\"}");

        HttpResponse<String> refused = peer.send(peer.post(padded, jsonHeaders()));

        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(Json.mapper().readTree(refused.body()).path("id").isNull()).isTrue();
    }

    @Test
    void aServerBeyondLoopbackWithoutAnAuthenticatorRefusesToBuildUnlessToldItIsInsecure() {
        McpHttpServerBuilder open = McpHttpServer.builder().host("0.0.0.0").allowedHosts(Set.of("mcp.example"))
                .onSession(t -> { });

        assertThatThrownBy(open::build).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no authenticator");
        open.insecureNoAuth().build().close();
    }

    private String metadataUrl() {
        return "http://127.0.0.1:" + http.port() + "/.well-known/oauth-protected-resource/mcp";
    }

    private String initialize(String token) throws Exception {
        HttpResponse<String> response = peer.send(withToken(peer.post(INIT, jsonHeaders()), token));
        assertThat(response.statusCode()).isEqualTo(200);
        String session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
        peer.send(withToken(peer.post(HttpPeer.INITIALIZED, headers(session)), token));
        return session;
    }

    private static Map<String, String> headers(String session) {
        return new HashMap<>(HttpPeer.sessionHeaders(session));
    }

    private static HttpRequest.Builder withToken(HttpRequest.Builder request, String token) {
        return request.header("Authorization", "Bearer " + token);
    }

    private static String call(int id, String tool) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":{}}}";
    }
}
