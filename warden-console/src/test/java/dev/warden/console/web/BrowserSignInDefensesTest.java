package dev.warden.console.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.auth.ResourceServer;
import dev.warden.console.Console;
import dev.warden.console.feed.ConsoleFeed;
import dev.warden.console.signin.PendingSignIns;
import dev.warden.core.identity.Authenticator;
import dev.warden.core.identity.Credentials;
import dev.warden.core.identity.ProtectedResourceMetadata;
import dev.warden.core.identity.Verdict;
import dev.warden.gateway.view.UpstreamState;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * What the security review found in the browser sign-in, each shut: a forged Host never becomes
 * the redirect URI, a sign-in finishes only in the browser that started it, page loads neither
 * evict a sign-in under way (it is sealed in its browser's cookie, not kept in a table) nor hammer
 * a server that is down, a changed, expired or foreign cookie refused alike, RFC 9207's iss as the
 * metadata promises it, sign-out only by a same-origin POST, and a re-sign-in keeps the page's query.
 */
class BrowserSignInDefensesTest extends SignInHarness {

    /** A request as any client may send it, Host included (java.net.http will not send a Host of our choosing). */
    private String raw(String host) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", console.port())) {
            socket.getOutputStream().write(("GET / HTTP/1.1\r\nHost: " + host + "\r\nAccept: text/html\r\n"
                    + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
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

        assertThatThrownBy(() -> Console.builder().feed(ConsoleFeed.of(clock))
                .address("0.0.0.0", 0).allowedHosts(Set.of("ops.example"))
                .auth(gatewayAuth(true), () -> RESOURCE, "warden:admin").signIn("console", Optional.empty(),
                        Optional.empty()).build()).as("off loopback the console's URL is required")
                .hasMessageContaining("--console-url");
        assertThatThrownBy(() -> Console.builder().signIn("console", Optional.empty(),
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
        assertThat(victim.statusCode()).as("another browser, no pending cookie: login CSRF refused").isEqualTo(400);
        assertThat(victim.headers().firstValue("Set-Cookie")).isEmpty();
        assertThat(get(callback, "Cookie", "warden_signin=" + "A".repeat(43)).statusCode()).isEqualTo(400);

        HttpResponse<String> signedIn = back(callback);
        assertThat(signedIn.statusCode()).isEqualTo(200);
        assertThat(signedIn.headers().allValues("Set-Cookie")).hasSize(2)
                .anySatisfy(c -> assertThat(c).startsWith("warden_console="))
                .anySatisfy(c -> assertThat(c).startsWith("warden_signin=;").contains("Max-Age=0"));
    }

    @Test
    void fiveThousandSignInsStartedByOtherBrowsersDoNotDropOneUnderWay() throws Exception {
        console = start(Optional.empty());
        URI callback = toCallback("/incidents");
        String mine = pendingCookie;
        List<CompletableFuture<HttpResponse<Void>>> flood = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            flood.add(HTTP.sendAsync(HttpRequest.newBuilder(console.uri()).header("Accept", "text/html").build(),
                    HttpResponse.BodyHandlers.discarding()));
            if (flood.size() == 50) {
                flood.forEach(f -> assertThat(f.join().statusCode()).isEqualTo(303));
                flood.clear();
            }
        }
        flood.forEach(f -> assertThat(f.join().statusCode()).isEqualTo(303));

        HttpResponse<String> signedIn = get(callback, "Cookie", mine);
        assertThat(signedIn.statusCode()).isEqualTo(200);
        assertThat(signedIn.body()).contains("content=\"0;url=/incidents\"");
        assertThat(signedIn.headers().allValues("Set-Cookie")).anySatisfy(c -> assertThat(c).startsWith("warden_console="));
    }

    @Test
    void aTamperedAnExpiredAndAnotherBrowsersCookieAreRefusedAlike() throws Exception {
        console = start(Optional.empty());
        URI callback = toCallback("/");
        String mine = pendingCookie;
        URI theirs = toCallback("/");
        String other = pendingCookie;

        int middle = mine.length() - (mine.length() - "warden_signin=".length()) / 2;
        String tampered = mine.substring(0, middle) + (mine.charAt(middle) == 'A' ? 'B' : 'A') + mine.substring(middle + 1);
        HttpResponse<String> changed = get(callback, "Cookie", tampered);
        HttpResponse<String> foreign = get(callback, "Cookie", other);
        clock.advance(PendingSignIns.LIFETIME.minusSeconds(1));
        assertThat(get(theirs, "Cookie", other).statusCode()).as("the other browser's own, just in time")
                .isEqualTo(200);
        clock.advance(Duration.ofSeconds(1));
        HttpResponse<String> expired = get(callback, "Cookie", mine);

        for (HttpResponse<String> refused : List.of(changed, foreign, expired)) {
            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(refused.body()).isEqualTo("this sign-in is unknown, used, expired or was started in another "
                    + "browser: open the console again\n");
            assertThat(refused.headers().firstValue("Set-Cookie")).isEmpty();
        }
    }

    @Test
    void theBrowsersCookieDoesNotCarryTheVerifierInClear() throws Exception {
        console = start(Optional.empty());
        URI callback = toCallback("/incidents");
        String value = pendingCookie.substring("warden_signin=".length());
        assertThat(back(callback).statusCode()).isEqualTo(200);
        String verifier = as.lastVerifier;
        assertThat(verifier).as("the verifier the token endpoint was sent").hasSizeGreaterThanOrEqualTo(43);
        assertThat(value).doesNotContain(verifier);
        assertThat(new String(Base64.getUrlDecoder().decode(value), StandardCharsets.ISO_8859_1))
                .as("nor merely encoded").doesNotContain(verifier).doesNotContain("/incidents");
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
        assertThat(form.headers().firstValue("Referrer-Policy")).as("else the form's POST says Origin: null")
                .contains("same-origin");
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
        AtomicBoolean revoked = new AtomicBoolean();
        Authenticator revocable = new Authenticator() {
            @Override
            public Verdict authenticate(Credentials c, URI r) {
                return auth.authenticate(revoked.get() ? Credentials.none() : c, r);
            }

            @Override
            public ProtectedResourceMetadata metadata(URI r) {
                return auth.metadata(r);
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
