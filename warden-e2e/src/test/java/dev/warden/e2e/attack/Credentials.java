package dev.warden.e2e.attack;

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
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Who calls, as the gateway decides it (issue 30, findings 5, 8 and 9): one credential per request,
 * an API key's identity that no token can claim, and a minted key that holds exactly the scopes its
 * operator gave. The target is a real {@code warden gateway} with API keys (a keys file) and a JWT
 * issuer the suite controls (a JWKS served from this JVM), and access rules giving everything to
 * the API key alice and to {@code mcp:admin}. No honest client: it would need a credential too.
 */
final class Credentials {

    static final Duration GUARD = Duration.ofSeconds(30);
    static final String AUDIENCE = "warden-attack";
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    private Credentials() {
    }

    static List<Attack> all() {
        return List.of(twoAuthorizations(), tokenClaimingAKey(), commaScope());
    }

    /** Two Authorization headers (finding 8: the first won; a proxy reading the last disagrees on who calls). */
    static Attack twoAuthorizations() {
        Stand stand = new Stand();
        return stand.attack("two Authorization headers",
                "initialize with two Authorization headers (alice's key and bob's, the same twice, garbage first)",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    McpHttp.Reply one = stand.initialize(http, "Bearer " + stand.alice);
                    if (one.status() != 200) {
                        tally.problem("the stand is broken: alice's key alone got HTTP " + one.status());
                    }
                    List<List<String>> pairs = List.of(List.of(stand.alice, stand.bob), List.of(stand.bob, stand.alice),
                            List.of(stand.alice, stand.alice), List.of("garbage", stand.alice));
                    for (List<String> pair : pairs) {
                        McpHttp.Reply reply = twoHeaders(http, "Bearer " + pair.get(0), "Bearer " + pair.get(1));
                        tally.answeredOnce(reply, 0);
                        if (reply.status() != 400) {
                            tally.problem("two Authorization headers got HTTP " + reply.status() + ", not 400");
                        }
                    }
                    tally.note("alice alone: HTTP " + one.status());
                });
    }

    /** A JWT whose sub is {@code key:alice} (finding 9: it got the rights rules give the API key alice). */
    static Attack tokenClaimingAKey() {
        Stand stand = new Stand();
        return stand.attack("token claiming an API key's subject",
                "a JWT from a configured issuer with sub key:alice, against rules written for the API key alice",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    int alices = stand.toolsSeen(http, "Bearer " + stand.alice, tally);
                    if (alices <= 0) {
                        tally.problem("the stand is broken: the API key alice saw no tools");
                    }
                    int tokens = stand.toolsSeen(http, "Bearer " + stand.token("key:alice"), tally);
                    if (tokens > 0) {
                        tally.problem("a JWT with sub key:alice saw " + tokens + " tools the rules give the API key alice");
                    }
                    tally.note("the key alice sees " + alices + " tools; the token "
                            + (tokens < 0 ? "is refused" : "sees " + tokens));
                });
    }

    /** {@code warden keys new --scope 'mcp:tools,mcp:admin'} (finding 5: the key got mcp:admin). */
    static Attack commaScope() {
        Stand stand = new Stand();
        return stand.attack("keys new with a comma in a scope",
                "a key minted with --scope 'mcp:tools,mcp:admin' added to the keys file, against a rule for mcp:admin",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    Process mint = new ProcessBuilder(Target.LAUNCHER.toString(), "keys", "new", "--name", "carol",
                            "--scope", "mcp:tools,mcp:admin").start();
                    String key = new String(mint.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
                    String err = new String(mint.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                    if (!mint.waitFor(60, TimeUnit.SECONDS) || mint.exitValue() != 0) {
                        tally.note("keys new refused it: " + err.lines().findFirst().orElse("").strip());
                        return;
                    }
                    Optional<String> entry = err.lines().filter(l -> l.strip().startsWith("- ")).findFirst();
                    if (entry.isEmpty()) {
                        tally.problem("keys new exited 0 without a keys-file entry");
                        return;
                    }
                    stand.addEntry(entry.get());
                    long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                    int seen = -1;
                    while (seen < 0 && System.nanoTime() < until) {
                        seen = stand.toolsSeen(http, "Bearer " + key, tally);
                        if (seen < 0) {
                            Thread.sleep(500); // the keys file is looked at once a second: a poll, not an ordering
                        }
                    }
                    if (seen > 0) {
                        tally.problem("the key minted with --scope 'mcp:tools,mcp:admin' saw " + seen
                                + " tools only mcp:admin may see");
                    }
                    tally.note("keys new printed an entry; the key " + (seen < 0 ? "was never admitted" : "sees " + seen));
                });
    }

    /** Sends an initialize with two Authorization field lines (McpHttp sends one of each header). */
    private static McpHttp.Reply twoHeaders(McpHttp http, String first, String second)
            throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(http.uri()).timeout(GUARD)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("Authorization", first).header("Authorization", second)
                .POST(HttpRequest.BodyPublishers.ofString(McpHttp.initializeRequest(0, "{}"))).build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        return new McpHttp.Reply(response.statusCode(), response.headers().firstValue("Mcp-Session-Id"),
                McpHttp.messages(response.headers().firstValue("Content-Type").orElse(""), response.body()));
    }

    /** One attack's gateway: its keys, its keys file, its issuer's key and JWKS server. */
    private static final class Stand {
        final String alice = ApiKeys.newKey();
        final String bob = ApiKeys.newKey();
        private RSAKey signing;
        private HttpServer jwks;
        private String issuer;
        private Path keysFile;

        Attack attack(String name, String what, Attack.Body body) {
            return new Attack(name, what, this::start, Optional.empty(), Attack.RSS_BOUND_MIB, false,
                    (target, scale, tally) -> {
                        try {
                            body.run(target, scale, tally);
                        } finally {
                            jwks.stop(0);
                            Files.deleteIfExists(keysFile);
                            Files.deleteIfExists(keysFile.getParent());
                        }
                    });
        }

        Target start(Scale scale) throws Exception {
            signing = new RSAKeyGenerator(2048).keyID("attack").generate();
            String published = new JWKSet(signing.toPublicJWK()).toString();
            jwks = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            jwks.createContext("/jwks", exchange -> {
                byte[] bytes = published.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, bytes.length);
                exchange.getResponseBody().write(bytes);
                exchange.close();
            });
            jwks.start();
            issuer = "http://127.0.0.1:" + jwks.getAddress().getPort();
            keysFile = Files.createTempDirectory("warden-attack-keys").resolve("keys.yaml");
            Files.writeString(keysFile, "keys:\n" + entry("alice", alice, "mcp:tools") + entry("bob", bob, "mcp:tools"));
            String yaml = Target.standardConfig(List.of(), List.of()) + """
                    auth:
                      apiKeys: { file: %s }
                      issuers:
                        - { issuer: "%s", jwksUri: "%s/jwks", audiences: [%s] }
                    access:
                      rules:
                        - 'caller.subject == "key:alice"'
                        - '"mcp:admin" in caller.scopes'
                    """.formatted(keysFile, issuer, issuer, AUDIENCE);
            return Target.gateway(yaml, Map.of());
        }

        private static String entry(String name, String key, String scope) {
            return "  - { name: " + name + ", sha256: " + ApiKeys.digest(key) + ", scopes: [" + scope + "] }\n";
        }

        /** Adds a line under keys: as an operator would, the file replaced whole. */
        void addEntry(String line) throws IOException {
            Path next = keysFile.resolveSibling("keys.yaml.next");
            Files.writeString(next, Files.readString(keysFile) + line + "\n");
            Files.move(next, keysFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }

        /** A JWT the configured issuer signed, for {@code subject}, with scope mcp:tools. */
        String token(String subject) throws Exception {
            long now = System.currentTimeMillis();
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("attack")
                    .type(new JOSEObjectType("at+jwt")).build(), new JWTClaimsSet.Builder().issuer(issuer)
                    .subject(subject).audience(AUDIENCE).issueTime(new Date(now))
                    .expirationTime(new Date(now + 300_000)).claim("scope", "mcp:tools").build());
            jwt.sign(new RSASSASigner(signing));
            return jwt.serialize();
        }

        McpHttp.Reply initialize(McpHttp http, String authorization) throws IOException, InterruptedException {
            return http.post(Optional.empty(), McpHttp.initializeRequest(0, "{}").getBytes(StandardCharsets.UTF_8),
                    Map.of("Authorization", authorization), GUARD);
        }

        /** How many tools {@code authorization}'s caller is listed; -1 when it is not admitted. */
        int toolsSeen(McpHttp http, String authorization, Tally tally) throws IOException, InterruptedException {
            McpHttp.Reply init = initialize(http, authorization);
            tally.answeredOnceByIdOrNull(init, 0);
            if (init.status() != 200 || init.session().isEmpty()) {
                return -1;
            }
            Map<String, String> auth = Map.of("Authorization", authorization);
            http.post(init.session(), "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"
                    .getBytes(StandardCharsets.UTF_8), auth, GUARD);
            McpHttp.Reply list = http.post(init.session(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"
                    .getBytes(StandardCharsets.UTF_8), auth, GUARD);
            tally.answeredOnce(list, 1);
            return list.answer(1).map(a -> a.path("result").path("tools").size()).orElse(0);
        }
    }
}
