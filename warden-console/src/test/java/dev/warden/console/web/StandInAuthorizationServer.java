package dev.warden.console.web;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A stand-in authorization server for the console's unit tests: RFC 8414 metadata, an authorization
 * endpoint that signs the browser in at once (redirecting back with a code and the state), and a
 * token endpoint that checks the code's PKCE verifier (S256) and redirect URI, and issues the
 * access token the test chose (an API key of the real resource server). The real one
 * (oidc-provider) is driven in warden-e2e.
 */
final class StandInAuthorizationServer implements AutoCloseable {

    final HttpServer http;
    final URI issuer;
    /** The access token the next code is exchanged for. */
    volatile String issues = "";
    volatile int expiresIn = 300;
    /** The PKCE verifier the last token request brought. */
    volatile String lastVerifier = "";
    /** The last authorization request's parameters. */
    volatile Map<String, String> lastAuthorization = Map.of();
    /** RFC 9207: the metadata promises iss in answers; the answer carries it. */
    volatile boolean advertisesIss;
    volatile boolean sendsIss = true;
    /** The metadata answers 503, as a server that is down behind its proxy. */
    volatile boolean down;
    final java.util.concurrent.atomic.AtomicInteger metadataRequests = new java.util.concurrent.atomic.AtomicInteger();
    private final Map<String, Map<String, String>> codes = new ConcurrentHashMap<>();

    StandInAuthorizationServer() throws IOException {
        http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        issuer = URI.create("http://127.0.0.1:" + http.getAddress().getPort());
        http.createContext("/", this::handle);
        http.start();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            switch (path) {
                case "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration" -> {
                    metadataRequests.incrementAndGet();
                    if (down) {
                        send(ex, 503, "{}");
                        return;
                    }
                    send(ex, 200, "{\"issuer\":\"" + issuer
                        + "\",\"authorization_endpoint\":\"" + issuer + "/authorize\",\"token_endpoint\":\"" + issuer
                        + "/token\",\"code_challenge_methods_supported\":[\"S256\"],"
                        + "\"token_endpoint_auth_methods_supported\":[\"none\"]"
                        + (advertisesIss ? ",\"authorization_response_iss_parameter_supported\":true" : "") + "}");
                }
                case "/authorize" -> {
                    Map<String, String> q = form(ex.getRequestURI().getRawQuery());
                    lastAuthorization = q;
                    String code = "code-" + codes.size();
                    codes.put(code, q);
                    ex.getResponseHeaders().set("Location", q.get("redirect_uri") + "?code=" + code + "&state="
                            + URLEncoder.encode(q.get("state"), StandardCharsets.UTF_8) + (sendsIss ? "&iss="
                            + URLEncoder.encode(issuer.toString(), StandardCharsets.UTF_8) : ""));
                    ex.sendResponseHeaders(302, -1);
                }
                case "/token" -> {
                    Map<String, String> f = form(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                    lastVerifier = f.getOrDefault("code_verifier", "");
                    Map<String, String> asked = codes.remove(f.getOrDefault("code", ""));
                    if (asked == null || !asked.get("redirect_uri").equals(f.get("redirect_uri"))
                            || !asked.get("code_challenge").equals(s256(f.getOrDefault("code_verifier", "")))
                            || !asked.get("client_id").equals(f.get("client_id"))) {
                        send(ex, 400, "{\"error\":\"invalid_grant\",\"error_description\":\"<b>no</b>\"}");
                        return;
                    }
                    send(ex, 200, "{\"access_token\":\"" + issues + "\",\"token_type\":\"Bearer\",\"expires_in\":"
                            + expiresIn + "}");
                }
                default -> send(ex, 404, "{}");
            }
        }
    }

    static String s256(String verifier) {
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(MessageDigest.getInstance("SHA-256")
                    .digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The console's own query reader: the stand-in reads what the console's callback reads. */
    static Map<String, String> form(String raw) {
        return Query.parse(raw).orElseThrow();
    }

    private static void send(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        ex.getResponseBody().write(bytes);
    }

    @Override
    public void close() {
        http.stop(0);
    }
}
