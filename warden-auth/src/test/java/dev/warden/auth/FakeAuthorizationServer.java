package dev.warden.auth;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * A stand-in authorization server for the unit tests: it publishes a JWK set, metadata and an
 * introspection endpoint with the JDK's HTTP server, counts what it is asked, and mints tokens
 * with nimbus. The real one is covered end to end in warden-e2e.
 */
final class FakeAuthorizationServer implements AutoCloseable {

    static final String RESOURCE = "https://mcp.example.com/mcp";
    /** One key for every instance: a 2048-bit RSA key takes a while to make. */
    static final RSAKey SIGNING_KEY = generate("rsa-1");

    final HttpServer http;
    final URI base;
    final URI issuer;
    final RSAKey key;
    final AtomicReference<JWKSet> published;
    final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();
    /** What the introspection endpoint answers for a token: a status and a JSON body. */
    volatile Function<String, Map.Entry<Integer, String>> introspection = t -> Map.entry(200, "{\"active\":false}");
    volatile String lastIntrospectionAuthorization = "";
    /** Where the metadata is served: RFC 8414's well-known path, or only OpenID Connect's. */
    volatile boolean rfc8414 = true;
    /** The issuer the metadata names (another one is an attack). */
    volatile String metadataIssuer;

    FakeAuthorizationServer(String issuerPath) throws Exception {
        key = SIGNING_KEY;
        published = new AtomicReference<>(new JWKSet(key.toPublicJWK()));
        http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        base = URI.create("http://127.0.0.1:" + http.getAddress().getPort());
        issuer = URI.create(base + issuerPath);
        metadataIssuer = issuer.toString();
        http.createContext("/", this::handle);
        http.start();
    }

    URI jwksUri() {
        return URI.create(base + "/jwks");
    }

    int hits(String path) {
        return hits.getOrDefault(path, new AtomicInteger()).get();
    }

    int totalHits() {
        return hits.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    void publish(JWK... keys) {
        published.set(new JWKSet(List.of(keys)));
    }

    private void handle(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        hits.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
        try (ex) {
            if (path.equals("/jwks")) {
                send(ex, 200, published.get().toString(true));
            } else if (rfc8414 ? path.startsWith("/.well-known/oauth-authorization-server")
                    : path.endsWith("/.well-known/openid-configuration")) {
                send(ex, 200, "{\"issuer\":\"" + metadataIssuer + "\",\"jwks_uri\":\"" + jwksUri()
                        + "\",\"introspection_endpoint\":\"" + base + "/introspect\"}");
            } else if (path.equals("/introspect")) {
                lastIntrospectionAuthorization = ex.getRequestHeaders().getFirst("Authorization");
                String form = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                String token = "";
                for (String pair : form.split("&")) {
                    if (pair.startsWith("token=")) {
                        token = java.net.URLDecoder.decode(pair.substring(6), StandardCharsets.UTF_8);
                    }
                }
                Map.Entry<Integer, String> answer = introspection.apply(token);
                send(ex, answer.getKey(), answer.getValue());
            } else {
                send(ex, 404, "{}");
            }
        }
    }

    private static void send(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        ex.getResponseBody().write(bytes);
    }

    /** Claims for a good token at {@code now}: this issuer, subject alice, the resource, 5 minutes. */
    JWTClaimsSet.Builder claims(Instant now) {
        return new JWTClaimsSet.Builder().issuer(issuer.toString()).subject("alice").audience(RESOURCE)
                .claim("scope", "mcp:tools mcp:read").claim("client_id", "inspector")
                .issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(300)));
    }

    String sign(JWTClaimsSet claims) throws Exception {
        return sign(key, claims, JOSEObjectType.JWT);
    }

    static String sign(JWK with, JWTClaimsSet claims, JOSEObjectType typ) throws Exception {
        JWSAlgorithm alg = with instanceof ECKey ? JWSAlgorithm.ES256 : JWSAlgorithm.RS256;
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).keyID(with.getKeyID()).type(typ).build(), claims);
        jwt.sign(with instanceof ECKey ec ? new ECDSASigner(ec) : new RSASSASigner((RSAKey) with));
        return jwt.serialize();
    }

    static RSAKey generate(String kid) {
        try {
            return new RSAKeyGenerator(2048).keyID(kid).generate();
        } catch (com.nimbusds.jose.JOSEException e) {
            throw new AssertionError(e);
        }
    }

    @Override
    public void close() {
        http.stop(0);
    }
}
