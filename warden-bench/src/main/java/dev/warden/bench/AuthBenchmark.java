package dev.warden.bench;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import dev.warden.auth.ApiKeys;
import dev.warden.auth.Issuer;
import dev.warden.auth.ResourceServer;
import dev.warden.core.identity.Credentials;
import dev.warden.core.identity.Verdict;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What authenticating one request costs the resource server: an RS256 JWT access token it has
 * verified before (a client sends the same token with each request; its signature is checked once
 * a minute), and an API key among 100 stored
 * ones — a known key, an unknown one and a wrong one (a known key with its last character changed):
 * the last two must cost the same, since every stored digest is compared.
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class AuthBenchmark extends AverageTimeBenchmark {

    private static final URI RESOURCE = URI.create("http://127.0.0.1:8080/mcp");

    private HttpServer jwks;
    private ResourceServer server;
    private Credentials jwt;
    private Credentials known;
    private Credentials unknown;
    private Credentials wrong;

    @Setup
    public void setUp() throws Exception {
        RSAKey key = new RSAKeyGenerator(2048).keyID("k1").generate();
        byte[] set = new JWKSet(key.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
        jwks = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        jwks.createContext("/jwks", exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, set.length);
            exchange.getResponseBody().write(set);
            exchange.close();
        });
        jwks.start();
        URI issuer = URI.create("http://127.0.0.1:" + jwks.getAddress().getPort());
        ApiKeys.Builder keys = ApiKeys.custom();
        String knownKey = "";
        for (int i = 0; i < 100; i++) {
            String k = ApiKeys.newKey();
            keys.key("client-" + i, ApiKeys.digest(k), Set.of("mcp:tools"));
            knownKey = k;
        }
        server = ResourceServer.custom().issuer(Issuer.custom(issuer).jwksUri(issuer.resolve("/jwks")).build())
                .apiKeys(keys.build()).requiredScopes(Set.of("mcp:tools")).build();
        Instant now = Instant.now();
        SignedJWT token = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("k1")
                .type(new JOSEObjectType("at+jwt")).build(), new JWTClaimsSet.Builder().issuer(issuer.toString())
                .subject("alice").audience(RESOURCE.toString()).claim("scope", "mcp:tools").claim("client_id", "app")
                .issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(3600))).build());
        token.sign(new RSASSASigner(key));
        jwt = bearer(token.serialize());
        known = bearer(knownKey);
        unknown = bearer(ApiKeys.newKey());
        wrong = bearer(knownKey.substring(0, knownKey.length() - 1) + (knownKey.endsWith("A") ? "B" : "A"));
        for (Credentials c : List.of(jwt, known)) {
            if (!(server.authenticate(c, RESOURCE) instanceof Verdict.Admitted)) {
                throw new IllegalStateException("the benchmark's credentials must be admitted");
            }
        }
    }

    private static Credentials bearer(String token) {
        return new Credentials(Optional.of("Bearer " + token), Optional.empty());
    }

    @TearDown
    public void tearDown() {
        jwks.stop(0);
    }

    @Benchmark
    public Verdict jwtRs256SeenBefore() {
        return server.authenticate(jwt, RESOURCE);
    }

    @Benchmark
    public Verdict apiKeyKnown() {
        return server.authenticate(known, RESOURCE);
    }

    @Benchmark
    public Verdict apiKeyUnknown() {
        return server.authenticate(unknown, RESOURCE);
    }

    @Benchmark
    public Verdict apiKeyWrong() {
        return server.authenticate(wrong, RESOURCE);
    }
}
