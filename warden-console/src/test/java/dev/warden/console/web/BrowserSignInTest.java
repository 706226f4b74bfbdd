package dev.warden.console.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.auth.ApiKeys;
import dev.warden.auth.Issuer;
import dev.warden.auth.ResourceServer;
import dev.warden.console.Console;
import dev.warden.console.feed.ConsoleFeed;
import dev.warden.gateway.view.UpstreamState;
import dev.warden.testkit.MutableClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A browser signs in to the console through the gateway's authorization server (a stand-in here;
 * oidc-provider in warden-e2e): the redirect with PKCE, state, resource and scopes; the callback's
 * checks; the session cookie and its end; the console's scope required. The gateway's authenticator
 * is the real resource server, and the tokens the stand-in issues are its API keys.
 */
class BrowserSignInTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient(); // follows no redirect
    private static final URI RESOURCE = URI.create("http://127.0.0.1:1/mcp");
    private static final String ADMIN = ApiKeys.newKey();
    private static final String AGENT = ApiKeys.newKey();

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T10:00:00Z"));
    private StandInAuthorizationServer as;
    private Console console;
    /** The sign-in nonce cookie the last page load was handed ({@code name=value}), as a browser keeps it. */
    private String nonce = "";

    @BeforeEach
    void startTheAuthorizationServer() throws Exception {
        as = new StandInAuthorizationServer();
        as.issues = ADMIN;
    }

    @AfterEach
    void stop() {
        if (console != null) {
            console.close();
        }
        as.close();
    }

    private ResourceServer gatewayAuth(boolean withIssuer) {
        ResourceServer.Builder auth = ResourceServer.custom().resource(RESOURCE).requiredScopes(Set.of("mcp"))
                .apiKeys(ApiKeys.custom().key("ops", ApiKeys.digest(ADMIN), Set.of("mcp", "warden:admin"))
                        .key("agent", ApiKeys.digest(AGENT), Set.of("mcp")).build());
        if (withIssuer) {
            auth.issuer(Issuer.of(as.issuer));
        }
        return auth.build();
    }

    private Console start(Optional<URI> publicUrl) throws Exception {
        ResourceServer auth = gatewayAuth(true);
        return Console.builder().upstreams(() -> List.<UpstreamState>of()).feed(ConsoleFeed.of(clock)).clock(clock)
                .auth(auth, () -> RESOURCE, "warden:admin").signIn("console", Optional.empty(), publicUrl).build()
                .start();
    }

    private HttpResponse<String> get(URI uri, String... headers) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(uri).GET();
        if (headers.length > 0) {
            r.headers(headers);
        }
        return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> page(String path, String... headers) throws Exception {
        String[] all = new String[headers.length + 2];
        all[0] = "Accept";
        all[1] = "text/html,application/xhtml+xml";
        System.arraycopy(headers, 0, all, 2, headers.length);
        HttpResponse<String> answer = get(console.uri().resolve(path), all);
        answer.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("warden_signin="))
                .forEach(c -> nonce = c.substring(0, c.indexOf(';')));
        return answer;
    }

    /** The browser that started the sign-in comes back to the callback, with its nonce cookie. */
    private HttpResponse<String> back(URI callback) throws Exception {
        return get(callback, "Cookie", nonce);
    }

    /** A sign-out as the console's form sends it: a POST from the console's own origin. */
    private HttpResponse<String> signOut(String cookie) throws Exception {
        String origin = console.uri().toString().substring(0, console.uri().toString().length() - 1);
        return HTTP.send(HttpRequest.newBuilder(console.uri().resolve("/logout")).POST(HttpRequest.BodyPublishers.noBody())
                .header("Origin", origin).header("Cookie", cookie).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The browser's way there and back: the console's redirect, the authorization server's answer. */
    private URI toCallback(String path) throws Exception {
        HttpResponse<String> sent = page(path);
        assertThat(sent.statusCode()).isEqualTo(303);
        HttpResponse<String> back = get(URI.create(sent.headers().firstValue("Location").orElseThrow()));
        assertThat(back.statusCode()).isEqualTo(302);
        return URI.create(back.headers().firstValue("Location").orElseThrow());
    }

    private static String cookie(HttpResponse<String> signedIn) {
        String set = signedIn.headers().firstValue("Set-Cookie").orElseThrow();
        return set.substring(0, set.indexOf(';'));
    }

    @Test
    void aBrowserIsSentToTheAuthorizationServerWithPkceStateResourceAndScopes() throws Exception {
        console = start(Optional.empty());
        HttpResponse<String> sent = page("/incidents?code=TIMEOUT");
        assertThat(sent.statusCode()).isEqualTo(303);
        assertThat(sent.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).startsWith(as.issuer
                + "/authorize?"));
        assertThat(sent.headers().firstValue("Content-Security-Policy")).contains(Security.CONTENT_SECURITY_POLICY);
        get(URI.create(sent.headers().firstValue("Location").orElseThrow()));
        Map<String, String> asked = as.lastAuthorization;
        assertThat(asked).containsEntry("response_type", "code").containsEntry("client_id", "console")
                .containsEntry("code_challenge_method", "S256").containsEntry("resource", RESOURCE.toString())
                .containsEntry("redirect_uri", console.uri().resolve("/login/callback").toString());
        assertThat(asked.get("scope").split(" ")).containsExactlyInAnyOrder("mcp", "warden:admin");
        assertThat(asked.get("state")).hasSizeGreaterThanOrEqualTo(22);
        assertThat(asked.get("code_challenge")).hasSize(43);

        HttpResponse<String> second = page("/");
        get(URI.create(second.headers().firstValue("Location").orElseThrow()));
        assertThat(as.lastAuthorization.get("state")).as("a state per sign-in").isNotEqualTo(asked.get("state"));
        assertThat(as.lastAuthorization.get("code_challenge")).isNotEqualTo(asked.get("code_challenge"));
    }

    @Test
    void theCallbackSetsAStrictHttpOnlyCookieAndTheBrowserReadsTheConsole() throws Exception {
        console = start(Optional.empty());
        HttpResponse<String> signedIn = back(toCallback("/incidents"));
        assertThat(signedIn.statusCode()).isEqualTo(200);
        assertThat(signedIn.headers().firstValue("Set-Cookie")).hasValueSatisfying(c -> assertThat(c)
                .startsWith("warden_console=").contains("; Path=/", "; HttpOnly", "; SameSite=Strict", "; Max-Age=300")
                .doesNotContain("Secure").doesNotContain(ADMIN));
        assertThat(signedIn.body()).contains("<meta http-equiv=\"refresh\" content=\"0;url=/incidents\">")
                .doesNotContain(ADMIN);
        assertThat(signedIn.headers().firstValue("Content-Security-Policy")).contains(Security.CONTENT_SECURITY_POLICY);

        HttpResponse<String> incidents = page("/incidents", "Cookie", cookie(signedIn));
        assertThat(incidents.statusCode()).isEqualTo(200);
        assertThat(incidents.body()).contains("<h1>Incidents");
    }

    @Test
    void theSessionEndsWithTheTokenAndAtSignOut() throws Exception {
        console = start(Optional.empty());
        String cookie = cookie(back(toCallback("/")));
        clock.advance(Duration.ofSeconds(299));
        assertThat(page("/", "Cookie", cookie).statusCode()).isEqualTo(200);
        clock.advance(Duration.ofSeconds(1));
        assertThat(page("/", "Cookie", cookie).statusCode()).as("past the token's expiry: sign in again").isEqualTo(303);

        String again = cookie(back(toCallback("/")));
        HttpResponse<String> out = signOut(again);
        assertThat(out.statusCode()).isEqualTo(200);
        assertThat(out.headers().firstValue("Set-Cookie")).hasValueSatisfying(c -> assertThat(c)
                .startsWith("warden_console=;").contains("Max-Age=0"));
        assertThat(page("/", "Cookie", again).statusCode()).isEqualTo(303);
    }

    @Test
    void aTokenWithoutTheConsolesScopeIsRefusedAndGetsNoSession() throws Exception {
        console = start(Optional.empty());
        as.issues = AGENT;
        HttpResponse<String> refused = back(toCallback("/"));
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.headers().firstValue("Set-Cookie")).isEmpty();
        assertThat(refused.body()).contains("does not hold the console's scope").doesNotContain(AGENT);
    }

    @Test
    void anUnknownOrReusedStateAndTheServersErrorsAreRefusedWithFixedText() throws Exception {
        console = start(Optional.empty());
        URI callback = toCallback("/");
        String forged = callback.toString().replaceFirst("state=[^&]+", "state=forged");
        assertThat(back(URI.create(forged)).statusCode()).isEqualTo(400);
        assertThat(back(callback).statusCode()).isEqualTo(200);
        HttpResponse<String> reused = back(callback);
        assertThat(reused.statusCode()).as("a state is used once").isEqualTo(400);
        assertThat(reused.headers().firstValue("Set-Cookie")).isEmpty();

        URI denied = toCallback("/");
        String state = StandInAuthorizationServer.form(denied.getRawQuery()).get("state");
        HttpResponse<String> error = back(console.uri().resolve("/login/callback?error=access_denied"
                + "&error_description=%3Cscript%3Ealert(1)%3C%2Fscript%3E&state=" + state));
        assertThat(error.statusCode()).isEqualTo(403);
        assertThat(error.body()).isEqualTo("the authorization server did not sign you in\n");

        URI wrongCode = toCallback("/");
        HttpResponse<String> bad = back(URI.create(wrongCode.toString().replaceFirst("code=[^&]+", "code=nope")));
        assertThat(bad.statusCode()).isEqualTo(502);
        assertThat(bad.body()).doesNotContain("<b>", "invalid_grant");
    }

    @Test
    void otherClientsKeepTheirCredentialsAndAreNeverRedirected() throws Exception {
        console = start(Optional.empty());
        assertThat(get(console.uri()).statusCode()).as("no Accept: text/html").isEqualTo(401);
        assertThat(get(console.uri(), "X-API-Key", ADMIN).statusCode()).isEqualTo(200);
        assertThat(page("/", "Authorization", "Bearer " + ADMIN).statusCode()).isEqualTo(200);
        assertThat(page("/", "X-API-Key", AGENT).statusCode()).isEqualTo(403);
    }

    @Test
    void overHttpsTheCookieIsSecureAndTheRedirectUriIsTheConsolesUrl() throws Exception {
        console = start(Optional.of(URI.create("https://console.example.com")));
        HttpResponse<String> sent = page("/");
        get(URI.create(sent.headers().firstValue("Location").orElseThrow()));
        assertThat(as.lastAuthorization).containsEntry("redirect_uri", "https://console.example.com/login/callback");
        // the browser would come back at that URL; here the same callback reaches the console directly
        URI callback = console.uri().resolve("/login/callback?code=code-0&state=" + as.lastAuthorization.get("state"));
        HttpResponse<String> signedIn = back(callback);
        assertThat(signedIn.headers().firstValue("Set-Cookie")).hasValueSatisfying(c -> assertThat(c).endsWith("; Secure"));
    }

    @Test
    void aReturnPathStaysOnTheConsole() {
        assertThat(BrowserSignIn.safeReturn("/incidents?code=TIMEOUT")).isEqualTo("/incidents?code=TIMEOUT");
        assertThat(BrowserSignIn.safeReturn("//evil.example/")).isEqualTo("/");
        assertThat(BrowserSignIn.safeReturn("/\\evil.example/")).isEqualTo("/");
        assertThat(BrowserSignIn.safeReturn("https://evil.example/")).isEqualTo("/");
        assertThat(BrowserSignIn.safeReturn("/login/callback?state=x")).isEqualTo("/");
    }

    @Test
    void withApiKeysAloneABrowserIsToldItNeedsAnIssuer() throws Exception {
        console = Console.builder().upstreams(() -> List.<UpstreamState>of()).feed(ConsoleFeed.of(clock)).clock(clock)
                .auth(gatewayAuth(false), () -> RESOURCE, "warden:admin").build().start();
        HttpResponse<String> browser = page("/");
        assertThat(browser.statusCode()).isEqualTo(401);
        assertThat(browser.headers().firstValue("Content-Type")).contains("text/html; charset=utf-8");
        assertThat(browser.body()).contains("id=\"needs-issuer\"", "OAuth issuer", "X-API-Key");
        assertThat(get(console.uri(), "X-API-Key", ADMIN).statusCode()).isEqualTo(200);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Console.builder().feed(ConsoleFeed.of(clock))
                .auth(gatewayAuth(false), () -> RESOURCE, "warden:admin").signIn("console", Optional.empty(),
                        Optional.empty()).build()).hasMessageContaining("OAuth issuer");
    }

    /** A request as any client may send it, Host included (java.net.http will not send a Host of our choosing). */
    private String raw(String host) throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", console.port())) {
            socket.getOutputStream().write(("GET / HTTP/1.1\r\nHost: " + host + "\r\nAccept: text/html\r\n"
                    + "Connection: close\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
        }
    }

    @Test
    void theRedirectUriIsNeverMadeFromTheRequestsHost() throws Exception {
        console = start(Optional.empty());
        String answer = raw("127.0.0.1:9@evil.example");
        assertThat(answer).startsWith("HTTP/1.1 303");
        String location = answer.lines().filter(l -> l.regionMatches(true, 0, "Location: ", 0, 10)).findFirst()
                .orElseThrow().substring(10).strip();
        assertThat(StandInAuthorizationServer.form(URI.create(location).getRawQuery()))
                .containsEntry("redirect_uri", console.uri().resolve("/login/callback").toString());

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Console.builder().feed(ConsoleFeed.of(clock))
                .address("0.0.0.0", 0).allowedHosts(Set.of("ops.example"))
                .auth(gatewayAuth(true), () -> RESOURCE, "warden:admin").signIn("console", Optional.empty(),
                        Optional.empty()).build()).as("off loopback the console's URL is required")
                .hasMessageContaining("--console-url");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Console.builder().signIn("console", Optional.empty(),
                Optional.of(URI.create("https://ops.example/console/")))).as("a path would be lost: refused")
                .hasMessageContaining("no path");
    }

    @Test
    void aSignInIsBoundToTheBrowserThatStartedIt() throws Exception {
        console = start(Optional.empty());
        HttpResponse<String> sent = page("/");
        assertThat(sent.headers().allValues("Set-Cookie")).singleElement().satisfies(c -> assertThat(c)
                .startsWith("warden_signin=").contains("; Path=/login/callback", "; HttpOnly", "; SameSite=Lax",
                        "; Max-Age=600").doesNotContain("Secure"));
        URI callback = URI.create(get(URI.create(sent.headers().firstValue("Location").orElseThrow()))
                .headers().firstValue("Location").orElseThrow());

        HttpResponse<String> victim = get(callback);
        assertThat(victim.statusCode()).as("another browser, no nonce: login CSRF refused").isEqualTo(400);
        assertThat(victim.headers().firstValue("Set-Cookie")).isEmpty();
        assertThat(get(callback, "Cookie", "warden_signin=" + "A".repeat(43)).statusCode()).isEqualTo(400);

        HttpResponse<String> signedIn = back(callback);
        assertThat(signedIn.statusCode()).isEqualTo(200);
        assertThat(signedIn.headers().allValues("Set-Cookie")).hasSize(2)
                .anySatisfy(c -> assertThat(c).startsWith("warden_console="))
                .anySatisfy(c -> assertThat(c).startsWith("warden_signin=;").contains("Max-Age=0"));
    }

    @Test
    void anonymousPageLoadsDoNotDropASignInUnderWay() throws Exception {
        console = start(Optional.empty());
        URI callback = toCallback("/incidents");
        String mine = nonce;
        for (int i = 0; i < 100; i++) {
            assertThat(get(console.uri(), "Accept", "text/html").statusCode()).isEqualTo(303);
        }
        assertThat(get(callback, "Cookie", mine).statusCode()).isEqualTo(200);
    }

    @Test
    void whileTheAuthorizationServerIsDownPageLoadsBackOff() throws Exception {
        console = start(Optional.empty());
        as.down = true;
        assertThat(page("/").statusCode()).isEqualTo(502);
        int asked = as.metadataRequests.get();
        assertThat(asked).isPositive();
        for (int i = 0; i < 5; i++) {
            assertThat(page("/").statusCode()).isEqualTo(502);
        }
        assertThat(as.metadataRequests.get()).as("no discovery per page load while it is down").isEqualTo(asked);

        as.down = false;
        clock.advance(BrowserSignIn.BACK_OFF);
        assertThat(page("/").statusCode()).as("tried again after the back-off").isEqualTo(303);
    }

    @Test
    void anIssThatTheServerPromisedMustComeBackAndBeItsIssuer() throws Exception {
        as.advertisesIss = true;
        as.sendsIss = false;
        console = start(Optional.empty());
        HttpResponse<String> missing = back(toCallback("/"));
        assertThat(missing.statusCode()).as("RFC 9207: iss absent while advertised").isEqualTo(400);
        assertThat(missing.headers().firstValue("Set-Cookie")).isEmpty();

        as.sendsIss = true;
        URI other = toCallback("/");
        String forged = other.toString().replaceFirst("iss=[^&]+", "iss=http%3A%2F%2Fevil.example");
        assertThat(back(URI.create(forged)).statusCode()).as("another issuer's name").isEqualTo(400);
        assertThat(back(toCallback("/")).statusCode()).as("its own name").isEqualTo(200);
    }

    @Test
    void signingOutIsAPostFromTheConsolesOwnPage() throws Exception {
        console = start(Optional.empty());
        String cookie = cookie(back(toCallback("/")));

        HttpResponse<String> form = page("/logout", "Cookie", cookie);
        assertThat(form.statusCode()).isEqualTo(200);
        assertThat(form.body()).contains("<form id=\"sign-out\" method=\"post\" action=\"/logout\">");
        assertThat(form.headers().firstValue("Set-Cookie")).as("a GET signs nobody out").isEmpty();
        assertThat(page("/", "Cookie", cookie).statusCode()).isEqualTo(200);

        HttpResponse<String> noOrigin = HTTP.send(HttpRequest.newBuilder(console.uri().resolve("/logout"))
                .POST(HttpRequest.BodyPublishers.noBody()).header("Cookie", cookie).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(noOrigin.statusCode()).isEqualTo(403);
        HttpResponse<String> otherPort = HTTP.send(HttpRequest.newBuilder(console.uri().resolve("/logout"))
                .POST(HttpRequest.BodyPublishers.noBody()).header("Cookie", cookie)
                .header("Origin", "http://127.0.0.1:1").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(otherPort.statusCode()).as("another loopback port is another origin").isEqualTo(403);
        assertThat(page("/", "Cookie", cookie).statusCode()).isEqualTo(200);

        assertThat(signOut(cookie).statusCode()).isEqualTo(200);
        assertThat(page("/", "Cookie", cookie).statusCode()).isEqualTo(303);
    }

    @Test
    void aSessionTheGatewayStopsAcceptingSignsInAgainToTheSamePageAndQuery() throws Exception {
        ResourceServer auth = gatewayAuth(true);
        java.util.concurrent.atomic.AtomicBoolean revoked = new java.util.concurrent.atomic.AtomicBoolean();
        dev.warden.core.identity.Authenticator revocable = new dev.warden.core.identity.Authenticator() {
            @Override
            public dev.warden.core.identity.Verdict authenticate(dev.warden.core.identity.Credentials c, URI r) {
                return auth.authenticate(revoked.get() ? dev.warden.core.identity.Credentials.none() : c, r);
            }

            @Override
            public dev.warden.core.identity.ProtectedResourceMetadata metadata(URI r) {
                return auth.metadata(r);
            }

            @Override
            public Set<String> requiredScopes() {
                return auth.requiredScopes();
            }
        };
        console = Console.builder().upstreams(() -> List.<UpstreamState>of()).feed(ConsoleFeed.of(clock)).clock(clock)
                .auth(revocable, () -> RESOURCE, "warden:admin").signIn("console", Optional.empty(), Optional.empty())
                .build().start();
        String cookie = cookie(back(toCallback("/")));
        revoked.set(true);
        HttpResponse<String> again = page("/incidents?code=TIMEOUT", "Cookie", cookie);
        assertThat(again.statusCode()).isEqualTo(303);
        revoked.set(false);
        URI callback = URI.create(get(URI.create(again.headers().firstValue("Location").orElseThrow()))
                .headers().firstValue("Location").orElseThrow());
        assertThat(back(callback).body()).contains("content=\"0;url=/incidents?code=TIMEOUT\"");
    }
}
