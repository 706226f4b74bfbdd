package dev.warden.client.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.warden.core.json.Json;
import dev.warden.core.transport.UnauthorizedException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The client's side of the authorization flow, against a small authorization server on loopback
 * that records what it receives. (The official conformance suite's 14 authorization scenarios run
 * the same code in CI through {@code scripts/conformance}.)
 */
class OAuthTest {

    /** What the authorization server saw. */
    record Seen(String path, Map<String, String> params, Optional<String> authorization, String body) {
    }

    private HttpServer server;
    private String base;
    private URI endpoint;
    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private String issuerOverride;
    private String resourceOverride;
    private boolean s256 = true;
    private List<String> authMethods = List.of("none");
    private String grantedScope;
    private boolean wrongState;
    /** "absent", "correct", "wrong" or "slash": the iss in the authorization answer (RFC 9207). */
    private String issMode = "absent";
    private boolean issAdvertised;
    private long expiresIn = 3600;
    private int tokens;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        base = "http://127.0.0.1:" + server.getAddress().getPort();
        endpoint = URI.create(base + "/mcp");
        server.createContext("/", this::handle);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void handle(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Map<String, String> params = new HashMap<>(parse(ex.getRequestURI().getRawQuery()));
        if ("application/x-www-form-urlencoded".equals(ex.getRequestHeaders().getFirst("Content-Type"))) {
            params.putAll(parse(body));
        }
        seen.add(new Seen(path, params, Optional.ofNullable(ex.getRequestHeaders().getFirst("Authorization")), body));
        ObjectNode json = Json.object();
        switch (path) {
            case "/.well-known/oauth-protected-resource/mcp" -> {
                json.put("resource", resourceOverride != null ? resourceOverride : base + "/mcp");
                json.putArray("authorization_servers").add(base + "/as");
                json.putArray("scopes_supported").add("read").add("write");
            }
            case "/.well-known/oauth-authorization-server/as" -> {
                json.put("issuer", issuerOverride != null ? issuerOverride : base + "/as");
                json.put("authorization_endpoint", base + "/as/authorize");
                json.put("token_endpoint", base + "/as/token");
                json.put("registration_endpoint", base + "/as/register");
                if (s256) {
                    json.putArray("code_challenge_methods_supported").add("S256");
                }
                json.put("authorization_response_iss_parameter_supported", issAdvertised);
                var methods = json.putArray("token_endpoint_auth_methods_supported");
                authMethods.forEach(methods::add);
            }
            case "/as/authorize" -> {
                String state = wrongState ? "forged" : params.get("state");
                String iss = switch (issMode) {
                    case "correct" -> "&iss=" + base + "/as";
                    case "wrong" -> "&iss=https://evil.example";
                    case "slash" -> "&iss=" + base + "/as/";
                    default -> "";
                };
                ex.getResponseHeaders().add("Location",
                        params.get("redirect_uri") + "?code=code-1&state=" + state + iss);
                ex.sendResponseHeaders(302, -1);
                ex.close();
                return;
            }
            case "/as/register" -> {
                var request = Json.mapper().readTree(body);
                json.put("client_id", "client-1");
                if (!"none".equals(request.path("token_endpoint_auth_method").asString(""))) {
                    json.put("client_secret", "s3cret-value");
                }
                send(ex, 201, json);
                return;
            }
            case "/as/token" -> {
                if ("bad".equals(params.get("code"))) {
                    json.put("error", "invalid_grant");
                    json.put("error_description", "code bad for s3cret-value");
                    send(ex, 400, json);
                    return;
                }
                tokens++;
                json.put("access_token", "token-" + tokens);
                json.put("token_type", "Bearer");
                json.put("expires_in", expiresIn);
                json.put("refresh_token", "refresh-" + tokens);
                if (grantedScope != null) {
                    json.put("scope", grantedScope);
                } else if (params.containsKey("scope")) {
                    json.put("scope", params.get("scope"));
                }
            }
            default -> {
                ex.sendResponseHeaders(404, -1);
                ex.close();
                return;
            }
        }
        send(ex, 200, json);
    }

    private static void send(HttpExchange ex, int status, ObjectNode json) throws IOException {
        byte[] bytes = Json.write(json).getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        ex.getResponseBody().write(bytes);
        ex.close();
    }

    private static Map<String, String> parse(String raw) {
        Map<String, String> out = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return out;
    }

    private Seen last(String path) {
        List<Seen> matching = new ArrayList<>(seen.stream().filter(s -> s.path().equals(path)).toList());
        assertThat(matching).as("requests to " + path).isNotEmpty();
        return matching.get(matching.size() - 1);
    }

    private long count(String path) {
        return seen.stream().filter(s -> s.path().equals(path)).count();
    }

    private OAuth oauth() {
        return OAuth.builder().clientName("test-client").redirectUri(URI.create("http://localhost:3000/callback"))
                .build();
    }

    private static List<String> challenge(String params) {
        return List.of("Bearer " + params);
    }

    @Test
    void a401RunsTheCodeFlowWithPkceStateAndTheResource() {
        OAuth oauth = oauth();
        oauth.refused(endpoint, Optional.empty(), 401, challenge("scope=\"read\""));

        assertThat(oauth.header()).contains("Bearer token-1");
        Seen authorize = last("/as/authorize");
        Seen token = last("/as/token");
        assertThat(authorize.params()).containsEntry("response_type", "code")
                .containsEntry("client_id", "client-1")
                .containsEntry("code_challenge_method", "S256")
                .containsEntry("resource", base + "/mcp")
                .containsEntry("scope", "read");
        assertThat(authorize.params().get("state")).hasSizeGreaterThanOrEqualTo(16);
        assertThat(Pkce.s256(token.params().get("code_verifier"))).isEqualTo(authorize.params().get("code_challenge"));
        assertThat(token.params()).containsEntry("grant_type", "authorization_code")
                .containsEntry("code", "code-1")
                .containsEntry("redirect_uri", "http://localhost:3000/callback")
                .containsEntry("resource", base + "/mcp")
                .containsEntry("client_id", "client-1");
        assertThat(last("/as/register").body()).contains("\"client_name\":\"test-client\"")
                .contains("\"token_endpoint_auth_method\":\"none\"")
                .contains("\"application_type\":\"native\"");
    }

    @Test
    void anIssuerInTheAnswerMustBeTheIssuerExactly() {
        issAdvertised = true;
        issMode = "correct";
        OAuth accepted = oauth();
        accepted.refused(endpoint, Optional.empty(), 401, challenge("scope=\"read\""));
        assertThat(accepted.header()).isPresent();
        for (String mode : List.of("wrong", "slash", "absent")) {
            issMode = mode;
            OAuth oauth = oauth();
            assertThatThrownBy(() -> oauth.refused(endpoint, Optional.empty(), 401, challenge("scope=\"read\"")))
                    .as(mode).isInstanceOf(UnauthorizedException.class).hasMessageContaining("issuer");
        }
    }

    @Test
    void anUnpromisedIssuerIsStillCompared() {
        issMode = "wrong";
        OAuth oauth = oauth();
        assertThatThrownBy(() -> oauth.refused(endpoint, Optional.empty(), 401, challenge("scope=\"read\"")))
                .isInstanceOf(UnauthorizedException.class);
        assertThat(count("/as/token")).isZero();
    }

    @Test
    void aRemoteHttpsRedirectRegistersAsAWebApplication() {
        assertThat(Registration.applicationType(URI.create("https://app.example/cb"))).isEqualTo("web");
        assertThat(Registration.applicationType(URI.create("http://127.0.0.1:9/cb"))).isEqualTo("native");
        assertThat(Registration.applicationType(URI.create("com.example.app:/cb"))).isEqualTo("native");
    }

    @Test
    void withoutAScopeInTheChallengeEveryScopeTheResourceSupportsIsAsked() {
        OAuth oauth = oauth();
        oauth.refused(endpoint, Optional.empty(), 401, challenge("realm=\"mcp\""));
        assertThat(last("/as/authorize").params()).containsEntry("scope", "read write");
    }

    @Test
    void theResourceMetadataNamedInTheChallengeIsUsed() {
        OAuth oauth = oauth();
        oauth.refused(endpoint, Optional.empty(), 401,
                challenge("resource_metadata=\"" + base + "/.well-known/oauth-protected-resource/mcp\""));
        assertThat(seen.get(0).path()).isEqualTo("/.well-known/oauth-protected-resource/mcp");
        assertThat(oauth.header()).isPresent();
    }

    @Test
    void aConfidentialClientUsesBasicAuthenticationWhenTheServerOffersIt() {
        authMethods = List.of("client_secret_basic");
        OAuth oauth = oauth();
        oauth.refused(endpoint, Optional.empty(), 401, challenge("scope=\"read\""));
        Seen token = last("/as/token");
        String expected = java.util.Base64.getEncoder().encodeToString("client-1:s3cret-value".getBytes());
        assertThat(token.authorization()).contains("Basic " + expected);
        assertThat(token.params()).doesNotContainKey("client_secret");
    }

    @Test
    void clientSecretPostPutsTheSecretInTheBody() {
        authMethods = List.of("client_secret_post");
        OAuth oauth = oauth();
        oauth.refused(endpoint, Optional.empty(), 401, challenge("scope=\"read\""));
        Seen token = last("/as/token");
        assertThat(token.authorization()).isEmpty();
        assertThat(token.params()).containsEntry("client_id", "client-1").containsEntry("client_secret", "s3cret-value");
    }

    @Test
    void aPreRegisteredClientDoesNotRegister() {
        authMethods = List.of("client_secret_basic");
        OAuth oauth = OAuth.builder().client("pre-id", "pre-secret").build();
        oauth.refused(endpoint, Optional.empty(), 401, challenge("scope=\"read\""));
        assertThat(count("/as/register")).isZero();
        assertThat(last("/as/authorize").params()).containsEntry("client_id", "pre-id");
        assertThat(oauth.header()).isPresent();
    }

    @Test
    void a403ForNewScopesStepsUpToTheUnionOfHeldAndAskedScopes() {
        OAuth oauth = oauth();
        oauth.refused(endpoint, Optional.empty(), 401, challenge("scope=\"read\""));
        oauth.refused(endpoint, oauth.header(), 403, challenge("error=\"insufficient_scope\", scope=\"write\""));
        assertThat(last("/as/authorize").params().get("scope").split(" ")).containsExactlyInAnyOrder("read", "write");
        assertThat(oauth.header()).contains("Bearer token-2");
        assertThat(count("/as/register")).isEqualTo(1); // registered once, reused
    }

    @Test
    void a403ForScopesAlreadyHeldIsRefusedWithoutAskingAgain() {
        OAuth oauth = oauth();
        oauth.refused(endpoint, Optional.empty(), 401, challenge("scope=\"read\""));
        assertThatThrownBy(() -> oauth.refused(endpoint, oauth.header(), 403,
                challenge("error=\"insufficient_scope\", scope=\"read\"")))
                .isInstanceOf(UnauthorizedException.class).hasMessageContaining("already holds");
        assertThat(count("/as/authorize")).isEqualTo(1);
    }

    @Test
    void a403WithoutInsufficientScopeIsNotAnAuthorizationMatter() {
        OAuth oauth = oauth();
        assertThatThrownBy(() -> oauth.refused(endpoint, Optional.empty(), 403, List.of()))
                .isInstanceOf(UnauthorizedException.class).hasMessageContaining("403");
        assertThat(seen).isEmpty();
    }

    @Test
    void aRefusalOfCredentialsAlreadyReplacedOnlyAsksForARetry() {
        OAuth oauth = oauth();
        oauth.refused(endpoint, Optional.empty(), 401, challenge("scope=\"read\""));
        int before = seen.size();
        oauth.refused(endpoint, Optional.empty(), 401, challenge("scope=\"read\"")); // sent before the token existed
        assertThat(seen).hasSize(before);
    }

    @Test
    void metadataNamingAnotherIssuerIsRefused() {
        issuerOverride = "https://evil.example/as";
        OAuth oauth = oauth();
        assertThatThrownBy(() -> oauth.refused(endpoint, Optional.empty(), 401, challenge("scope=\"read\"")))
                .isInstanceOf(UnauthorizedException.class).hasMessageContaining("issuer")
                .hasMessageNotContaining("evil.example");
        assertThat(count("/as/authorize")).isZero();
        assertThat(oauth.header()).isEmpty();
    }

    @Test
    void resourceMetadataForAnotherResourceIsRefused() {
        resourceOverride = "https://other.example/mcp";
        OAuth oauth = oauth();
        assertThatThrownBy(() -> oauth.refused(endpoint, Optional.empty(), 401, challenge("scope=\"read\"")))
                .isInstanceOf(UnauthorizedException.class).hasMessageContaining("another resource");
        assertThat(count("/as/authorize")).isZero();
    }

    @Test
    void anAuthorizationServerWithoutPkceS256IsRefused() {
        s256 = false;
        OAuth oauth = oauth();
        assertThatThrownBy(() -> oauth.refused(endpoint, Optional.empty(), 401, challenge("scope=\"read\"")))
                .isInstanceOf(UnauthorizedException.class).hasMessageContaining("PKCE");
        assertThat(count("/as/authorize")).isZero();
    }

    @Test
    void anAnswerWithAnotherStateIsRefused() {
        wrongState = true;
        OAuth oauth = oauth();
        assertThatThrownBy(() -> oauth.refused(endpoint, Optional.empty(), 401, challenge("scope=\"read\"")))
                .isInstanceOf(UnauthorizedException.class).hasMessageContaining("state");
        assertThat(count("/as/token")).isZero();
    }

    @Test
    void aTokenEndpointRefusalNamesItsCodeButNotItsDescription() {
        OAuth oauth = OAuth.builder().userAgent((request, redirect) -> URI.create(redirect + "?code=bad&state="
                + parse(request.getRawQuery()).get("state"))).build();
        assertThatThrownBy(() -> oauth.refused(endpoint, Optional.empty(), 401, challenge("scope=\"read\"")))
                .isInstanceOf(UnauthorizedException.class)
                .hasMessageContaining("(invalid_grant)")
                .hasMessageNotContaining("s3cret");
    }

    @Test
    void aStaleTokenIsRefreshedBeforeItIsSent() {
        expiresIn = 1; // inside the 30 s margin: stale at once
        OAuth oauth = oauth();
        oauth.refused(endpoint, Optional.empty(), 401, challenge("scope=\"read\""));
        assertThat(oauth.header()).contains("Bearer token-2");
        Seen refresh = last("/as/token");
        assertThat(refresh.params()).containsEntry("grant_type", "refresh_token")
                .containsEntry("refresh_token", "refresh-1").containsEntry("resource", base + "/mcp");
        assertThat(count("/as/authorize")).isEqualTo(1);
    }

    @Test
    void whenATokenIsStaleIsDecidedByTheGivenClock() {
        dev.warden.testkit.MutableClock clock = new dev.warden.testkit.MutableClock(java.time.Instant.parse("2026-11-24T00:00:00Z"));
        OAuth oauth = OAuth.builder().clientName("test-client").redirectUri(URI.create("http://localhost:3000/callback"))
                .clock(clock).build();
        oauth.refused(endpoint, Optional.empty(), 401, challenge("scope=\"read\""));
        assertThat(oauth.header()).contains("Bearer token-1");
        clock.advance(java.time.Duration.ofSeconds(expiresIn)); // an hour on: past the token's life
        assertThat(oauth.header()).contains("Bearer token-2");
        assertThat(last("/as/token").params()).containsEntry("grant_type", "refresh_token");
    }

    @Test
    void credentialsAreNotSentOverPlainHttpToAnotherMachine() {
        OAuth oauth = oauth();
        assertThatThrownBy(() -> oauth.refused(URI.create("http://mcp.example/mcp"), Optional.empty(), 401,
                challenge("scope=\"read\""))).isInstanceOf(UnauthorizedException.class);
        assertThat(seen).isEmpty();
    }

    @Test
    void withoutResourceMetadataTheServersOriginIsTheAuthorizationServer() {
        // 2025-03-26: no resource metadata anywhere, so /.well-known/oauth-authorization-server at the origin,
        // then the default endpoints.
        OAuth oauth = oauth();
        URI legacy = URI.create(base + "/legacy");
        assertThatThrownBy(() -> oauth.refused(legacy, Optional.empty(), 401, List.of()))
                .isInstanceOf(UnauthorizedException.class);
        assertThat(seen.stream().map(Seen::path)).containsSubsequence(
                "/.well-known/oauth-protected-resource/legacy", "/.well-known/oauth-protected-resource",
                "/.well-known/oauth-authorization-server", "/register");
    }

    @Test
    void theBuilderNamesTheBadValue() {
        assertThatThrownBy(() -> OAuth.builder().clientMetadataUrl(URI.create("http://x.example/c.json")))
                .hasMessageContaining("clientMetadataUrl").hasMessageContaining("http://x.example/c.json");
        assertThatThrownBy(() -> OAuth.builder().redirectUri(URI.create("/relative")))
                .hasMessageContaining("redirectUri");
        assertThatThrownBy(() -> OAuth.builder().client("id", "")).hasMessageContaining("secret");
    }
}
