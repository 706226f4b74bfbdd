package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.warden.core.json.Json;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A browser signs in to the gateway's console (issue 34): {@code warden gateway --console} with an
 * {@code auth:} naming the real authorization server (oidc-provider, {@link AuthorizationServer}),
 * the console registered there as a public client ({@code --console-client-id}, PKCE); Debian's
 * Chromium driven by Playwright opens {@code /incidents} with no credential, is sent to the
 * authorization server, logs in (headless), comes back and lands on the incidents page, with a
 * session cookie that is HttpOnly and SameSite=Strict. A gateway whose console asks for a scope the
 * server does not grant for the gateway's resource answers the same browser 403.
 */
class ConsoleSignInInChromiumEndToEndTest {

    private static AuthorizationServer as;

    @BeforeAll
    static void start() throws Exception {
        if (System.getenv("CI") != null) {
            assertThat(ConsoleInChromiumEndToEndTest.CHROMIUM).as("CI installs Debian's chromium").isExecutable();
        }
        assumeTrue(Files.isExecutable(ConsoleInChromiumEndToEndTest.CHROMIUM), "no /usr/bin/chromium");
        // warden:admin is granted for any resource (the gateway's); mcp:admin is a scope the server
        // knows but grants only for another resource, never for the gateway's.
        as = AuthorizationServer.start(AuthorizationServer.Resource.jwt("*", "mcp:tools", "warden:admin"),
                AuthorizationServer.Resource.jwt("http://other.invalid/", "mcp:admin"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (as != null) {
            as.close();
        }
    }

    /** A port the system picks, for the console: its redirect URI is registered before the gateway starts. */
    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** RFC 7591 registration of the console as a public client (PKCE, no secret). */
    private static String register(String redirectUri) throws Exception {
        JsonNode metadata = Json.mapper().readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(as.issuer() + "/.well-known/oauth-authorization-server")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
        HttpResponse<String> registered = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(metadata.path("registration_endpoint").asString()))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"client_name\":\"warden console\",\"redirect_uris\":[\"" + redirectUri + "\"],"
                                + "\"grant_types\":[\"authorization_code\"],\"response_types\":[\"code\"],"
                                + "\"token_endpoint_auth_method\":\"none\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(registered.statusCode()).as(registered.body()).isEqualTo(201);
        return Json.mapper().readTree(registered.body()).path("client_id").asString();
    }

    private static JsonNode signIn(String consoleScope, String shot) throws Exception {
        int port = freePort();
        String clientId = register("http://127.0.0.1:" + port + "/login/callback");
        Path dir = Files.createTempDirectory("warden-console-signin");
        Path config = dir.resolve("warden.yaml");
        Files.writeString(config, """
                http: { port: 0 }
                auth:
                  issuers: [ { issuer: "%s" } ]
                  scopes: [mcp:tools]
                upstreams:
                  shop:
                    command: [%s, %s]
                """.formatted(as.issuer(), Processes.NODE, Processes.NODE_DIR.resolve("console-server.mjs")));
        LinePeer peer = new LinePeer(List.of(Processes.LAUNCHER.toString(), "gateway", "--config", config.toString(),
                "--data-dir", dir.toString(), "--console", "127.0.0.1:" + port, "--console-client-id", clientId,
                "--console-scope", consoleScope));
        try {
            assertThat(peer.nextLine(java.time.Duration.ofSeconds(60))).startsWith("warden gateway: serving 1 upstream");
            Path shots = Path.of("target", "console-e2e").toAbsolutePath();
            Files.createDirectories(shots);
            Processes.Result result = Processes.run(Processes.node("console-signin.mjs", "http://127.0.0.1:" + port + "/",
                    shots.toString(), shot));
            assertThat(result.exitCode()).as(result.stderr()).isZero();
            return Json.mapper().readTree(result.stdout());
        } finally {
            peer.destroy();
        }
    }

    @Test
    void theBrowserSignsInAtTheAuthorizationServerAndLandsOnTheIncidentsPage() throws Exception {
        JsonNode seen = signIn("warden:admin", "console-signin");

        List<String> urls = new java.util.ArrayList<>();
        seen.path("navigations").forEach(n -> urls.add(n.path("url").asString()));
        assertThat(urls.get(0)).as(seen.toString()).endsWith("/incidents");
        assertThat(seen.path("navigations").get(0).path("status").asInt()).isEqualTo(303);
        assertThat(urls).as("through the authorization server and back").anyMatch(u -> u.startsWith(as.issuer()))
                .anyMatch(u -> u.contains("/login/callback?"));
        assertThat(seen.path("url").asString()).as(seen.toString()).endsWith("/incidents");
        JsonNode last = seen.path("navigations").get(seen.path("navigations").size() - 1);
        assertThat(last.path("status").asInt()).isEqualTo(200);
        assertThat(seen.path("h1").asString()).isEqualTo("Incidents");
        assertThat(seen.path("searchBox").asInt()).as("the incident search").isEqualTo(1);
        assertThat(seen.path("scripts").asInt()).isZero();
        assertThat(seen.path("dialogs").size()).isZero();
        assertThat(seen.path("pageErrors").size()).isZero();

        JsonNode cookie = seen.path("cookies").get(0);
        assertThat(seen.path("cookies").size()).as(seen.toString()).isEqualTo(1);
        assertThat(cookie.path("name").asString()).isEqualTo("warden_console");
        assertThat(cookie.path("httpOnly").asBoolean()).isTrue();
        assertThat(cookie.path("sameSite").asString()).isEqualTo("Strict");
        assertThat(cookie.path("secure").asBoolean()).as("served over http").isFalse();
        assertThat(cookie.path("path").asString()).isEqualTo("/");
        assertThat(seen.path("afterLogout").size()).as("signed out: the cookie is gone").isZero();
        assertThat(Files.size(Path.of("target", "console-e2e", "console-signin.png"))).isGreaterThan(5_000);
    }

    @Test
    void aTokenWithoutTheConsolesScopeIsRefused() throws Exception {
        JsonNode seen = signIn("mcp:admin", "console-signin-refused");

        JsonNode last = seen.path("navigations").get(seen.path("navigations").size() - 1);
        assertThat(last.path("url").asString()).as(seen.toString()).contains("/login/callback?");
        assertThat(last.path("status").asInt()).isEqualTo(403);
        assertThat(seen.path("body").asString()).contains("does not hold the console's scope");
        assertThat(seen.path("cookies").size()).as("no session").isZero();
    }
}
