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
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A browser's side of the console's sign-in, for the tests of it: a stand-in authorization server,
 * the real resource server (its API keys are the tokens the stand-in issues), a client that
 * follows no redirect and keeps the pending sign-in cookie as a browser would.
 */
abstract class SignInHarness {

    static final HttpClient HTTP = HttpClient.newHttpClient(); // follows no redirect
    static final URI RESOURCE = URI.create("http://127.0.0.1:1/mcp");
    static final String ADMIN = ApiKeys.newKey();
    static final String AGENT = ApiKeys.newKey();

    final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T10:00:00Z"));
    StandInAuthorizationServer as;
    Console console;
    /** The pending sign-in cookie the last page load was handed ({@code name=value}), as a browser keeps it. */
    String pendingCookie = "";

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

    ResourceServer gatewayAuth(boolean withIssuer) {
        ResourceServer.Builder auth = ResourceServer.custom().resource(RESOURCE).requiredScopes(Set.of("mcp"))
                .apiKeys(ApiKeys.custom().key("ops", ApiKeys.digest(ADMIN), Set.of("mcp", "warden:admin"))
                        .key("agent", ApiKeys.digest(AGENT), Set.of("mcp")).build());
        if (withIssuer) {
            auth.issuer(Issuer.of(as.issuer));
        }
        return auth.build();
    }

    Console start(Optional<URI> publicUrl) throws Exception {
        ResourceServer auth = gatewayAuth(true);
        return Console.builder().upstreams(() -> List.<UpstreamState>of()).feed(ConsoleFeed.of(clock)).clock(clock)
                .auth(auth, () -> RESOURCE, "warden:admin").signIn("console", Optional.empty(), publicUrl).build()
                .start();
    }

    HttpResponse<String> get(URI uri, String... headers) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(uri).GET();
        if (headers.length > 0) {
            r.headers(headers);
        }
        return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> page(String path, String... headers) throws Exception {
        String[] all = new String[headers.length + 2];
        all[0] = "Accept";
        all[1] = "text/html,application/xhtml+xml";
        System.arraycopy(headers, 0, all, 2, headers.length);
        HttpResponse<String> answer = get(console.uri().resolve(path), all);
        answer.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("warden_signin="))
                .forEach(c -> pendingCookie = c.substring(0, c.indexOf(';')));
        return answer;
    }

    /** The browser that started the sign-in comes back to the callback, with its pending cookie. */
    HttpResponse<String> back(URI callback) throws Exception {
        return get(callback, "Cookie", pendingCookie);
    }

    /** A request with no credential and no Accept, by method. */
    HttpResponse<String> send(String method, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(console.uri().resolve(path)).method(method,
                HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A sign-out as the console's form sends it: a POST from the console's own origin. */
    HttpResponse<String> signOut(String cookie) throws Exception {
        String origin = console.uri().toString().substring(0, console.uri().toString().length() - 1);
        return HTTP.send(HttpRequest.newBuilder(console.uri().resolve("/logout")).POST(HttpRequest.BodyPublishers.noBody())
                .header("Origin", origin).header("Cookie", cookie).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The browser's way there and back: the console's redirect, the authorization server's answer. */
    URI toCallback(String path) throws Exception {
        HttpResponse<String> sent = page(path);
        assertThat(sent.statusCode()).isEqualTo(303);
        HttpResponse<String> back = get(URI.create(sent.headers().firstValue("Location").orElseThrow()));
        assertThat(back.statusCode()).isEqualTo(302);
        return URI.create(back.headers().firstValue("Location").orElseThrow());
    }

    static String cookie(HttpResponse<String> signedIn) {
        String set = signedIn.headers().firstValue("Set-Cookie").orElseThrow();
        return set.substring(0, set.indexOf(';'));
    }

}
