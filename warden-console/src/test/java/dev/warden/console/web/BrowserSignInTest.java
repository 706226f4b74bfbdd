package dev.warden.console.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.console.Console;
import dev.warden.console.feed.ConsoleFeed;
import dev.warden.gateway.view.UpstreamState;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A browser signs in to the console through the gateway's authorization server (a stand-in here;
 * oidc-provider in warden-e2e): the redirect with PKCE, state, resource and scopes; the callback's
 * checks; the session cookie and its end; the console's scope required. The gateway's authenticator
 * is the real resource server, and the tokens the stand-in issues are its API keys.
 */
class BrowserSignInTest extends SignInHarness {

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
    void signInPagesAreStyledWithTheConsolesStylesheetWhichNeedsNoSession() throws Exception {
        console = start(Optional.empty());
        HttpResponse<String> css = get(console.uri().resolve("/console.css"));
        assertThat(css.statusCode()).as("a browser without a session still gets the stylesheet").isEqualTo(200);
        assertThat(css.headers().firstValue("Content-Type")).contains("text/css; charset=utf-8");
        assertThat(css.headers().firstValue("Content-Security-Policy")).isPresent();
        assertThat(send("POST", "/console.css").statusCode()).as("only a GET of it passes the gate").isEqualTo(401);

        HttpResponse<String> signedIn = back(toCallback("/tools"));
        assertThat(signedIn.body()).contains("href=\"/console.css\"", "content=\"0;url=/tools\"");
        String cookie = cookie(signedIn);
        assertThat(page("/logout", "Cookie", cookie).body()).contains("href=\"/console.css\"");
        assertThat(signOut(cookie).body()).contains("href=\"/console.css\"", "Signed out.");
    }

    @Test
    void everyPageLinksToTheSignOutForm() throws Exception {
        console = start(Optional.empty());
        String cookie = cookie(back(toCallback("/")));
        for (String path : List.of("/", "/tools", "/incidents", "/audit", "/pins", "/nothing")) {
            assertThat(page(path, "Cookie", cookie).body()).as(path)
                    .contains("<a class=\"sign-out\" href=\"/logout\">Sign out</a>");
        }
    }

    @Test
    void withoutBrowserSignInTheSignOutLinkSaysThereIsNothingToEnd() throws Exception {
        console = Console.builder().upstreams(() -> List.<UpstreamState>of()).feed(ConsoleFeed.of(clock)).clock(clock)
                .auth(gatewayAuth(false), () -> RESOURCE, "warden:admin").build().start();
        HttpResponse<String> logout = get(console.uri().resolve("/logout"), "X-API-Key", ADMIN);
        assertThat(logout.statusCode()).isEqualTo(200);
        assertThat(logout.body()).contains("id=\"no-sign-in\"", "href=\"/console.css\"");
        assertThat(logout.headers().firstValue("Set-Cookie")).isEmpty();
        assertThat(get(console.uri().resolve("/logout")).statusCode()).as("still behind the gate").isEqualTo(401);
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
        assertThatThrownBy(() -> Console.builder().feed(ConsoleFeed.of(clock))
                .auth(gatewayAuth(false), () -> RESOURCE, "warden:admin").signIn("console", Optional.empty(),
                        Optional.empty()).build()).hasMessageContaining("OAuth issuer");
    }
}
