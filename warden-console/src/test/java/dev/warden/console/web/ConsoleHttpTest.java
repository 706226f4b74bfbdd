package dev.warden.console.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.auth.ApiKeys;
import dev.warden.auth.ResourceServer;
import dev.warden.console.Console;
import dev.warden.console.feed.ConsoleFeed;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.incident.FileIncidentStore;
import dev.warden.core.incident.Incident;
import dev.warden.gateway.view.UpstreamState;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The console served on a port of its own: its headers, GET only, the admin gate, and an incident found by ref. */
class ConsoleHttpTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final List<UpstreamState> UPSTREAMS = List.of(new UpstreamState("crm", "stdio", false,
            UpstreamState.Breaker.CLOSED, Optional.empty(), 1, 4, true, Optional.empty()));

    @TempDir
    Path dir;

    private Console console;
    private FileIncidentStore store;

    @AfterEach
    void stop() {
        if (console != null) {
            console.close();
        }
        if (store != null) {
            store.close();
        }
    }

    private Console.Builder open() {
        store = FileIncidentStore.open(dir.resolve("incidents"));
        return Console.builder().upstreams(() -> UPSTREAMS).feed(ConsoleFeed.of(java.time.Clock.systemUTC()))
                .incidents(store);
    }

    private HttpResponse<String> send(String method, String path, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(console.uri().resolve(path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (headers.length > 0) {
            request.headers(headers);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void everyAnswerCarriesAStrictPolicy() throws Exception {
        console = open().build().start();

        for (HttpResponse<String> r : List.of(send("GET", "/"), send("GET", "/console.css"), send("GET", "/nothing"),
                send("POST", "/"))) {
            assertThat(r.headers().firstValue("Content-Security-Policy")).contains(
                    "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
            assertThat(r.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
            assertThat(r.headers().firstValue("Referrer-Policy")).contains("no-referrer");
            assertThat(r.headers().firstValue("Cache-Control")).contains("no-store");
        }
        HttpResponse<String> page = send("GET", "/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).contains("text/html; charset=utf-8");
        assertThat(page.body()).contains("<table id=\"upstreams\"", ">crm</a>", "href=\"/console.css\"")
                .doesNotContain("<script");
        assertThat(send("GET", "/console.css").headers().firstValue("Content-Type")).contains("text/css; charset=utf-8");
    }

    @Test
    void onlyGetIsServed() throws Exception {
        console = open().build().start();

        for (String method : List.of("POST", "PUT", "DELETE", "PATCH", "OPTIONS")) {
            HttpResponse<String> r = send(method, "/incidents");
            assertThat(r.statusCode()).as(method).isEqualTo(405);
            assertThat(r.headers().firstValue("Allow")).contains("GET");
        }
    }

    @Test
    void aPageOfAnotherOriginCannotReadIt() throws Exception {
        console = open().build().start();

        assertThat(send("GET", "/", "Origin", "http://evil.example").statusCode()).isEqualTo(403);
        assertThat(send("GET", "/", "Origin", "http://127.0.0.1:" + console.port()).statusCode()).isEqualTo(200);
    }

    @Test
    void theStylesheetServedBeforeTheGateStillFollowsTheHostAndOriginPolicy() throws Exception {
        console = open().build().start();

        assertThat(send("GET", "/console.css", "Origin", "http://evil.example").statusCode()).isEqualTo(403);
        assertThat(send("GET", "/console.css").statusCode()).isEqualTo(200);
    }

    @Test
    void withAuthOnlyACallerWithTheAdminScopeReadsIt() throws Exception {
        String admin = ApiKeys.newKey();
        String reader = ApiKeys.newKey();
        ResourceServer auth = ResourceServer.custom().apiKeys(ApiKeys.custom()
                .key("ops", ApiKeys.digest(admin), Set.of("mcp", "warden:admin"))
                .key("agent", ApiKeys.digest(reader), Set.of("mcp")).build()).build();
        console = open().auth(auth, () -> URI.create("http://127.0.0.1:1/mcp"), "warden:admin").build().start();

        HttpResponse<String> none = send("GET", "/");
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("WWW-Authenticate")).contains("Bearer scope=\"warden:admin\"");
        assertThat(none.headers().firstValue("Content-Security-Policy")).isPresent();
        assertThat(send("GET", "/", "X-API-Key", "wrong-" + admin).statusCode()).isEqualTo(401);
        assertThat(send("GET", "/", "Authorization", "Bearer not-a-token").statusCode()).isEqualTo(401);

        HttpResponse<String> agent = send("GET", "/", "X-API-Key", reader);
        assertThat(agent.statusCode()).isEqualTo(403);
        assertThat(agent.headers().firstValue("WWW-Authenticate"))
                .contains("Bearer error=\"insufficient_scope\", scope=\"warden:admin\"");
        assertThat(agent.body()).doesNotContain("crm");

        assertThat(send("GET", "/", "X-API-Key", admin).statusCode()).isEqualTo(200);
        assertThat(send("POST", "/", "X-API-Key", reader).statusCode()).as("refused before the method is judged")
                .isEqualTo(403);
        assertThat(send("POST", "/", "X-API-Key", admin).statusCode()).isEqualTo(405);
    }

    @Test
    void aKeyWithTheAdminScopeButNotTheGatewaysIsToldEveryScopeNeeded() throws Exception {
        String adminOnly = ApiKeys.newKey();
        String agent = ApiKeys.newKey();
        ResourceServer auth = ResourceServer.custom().requiredScopes(Set.of("mcp:tools")).apiKeys(ApiKeys.custom()
                .key("ops", ApiKeys.digest(adminOnly), Set.of("warden:admin"))
                .key("agent", ApiKeys.digest(agent), Set.of("mcp:tools")).build()).build();
        console = open().auth(auth, () -> URI.create("http://127.0.0.1:1/mcp"), "warden:admin").build().start();

        for (String key : List.of(adminOnly, agent)) {
            HttpResponse<String> refused = send("GET", "/", "X-API-Key", key);
            assertThat(refused.statusCode()).isEqualTo(403);
            assertThat(refused.body()).isEqualTo("the console needs the scopes mcp:tools warden:admin\n");
            assertThat(refused.headers().firstValue("WWW-Authenticate"))
                    .contains("Bearer error=\"insufficient_scope\", scope=\"mcp:tools warden:admin\"");
        }
        HttpResponse<String> none = send("GET", "/");
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("WWW-Authenticate")).contains("Bearer scope=\"mcp:tools warden:admin\"");
    }

    @Test
    void anIncidentOpensByItsRef() throws Exception {
        console = open().build().start();
        Ref ref = Ref.random();
        store.record(Incident.ofText(ref, Instant.now(), ErrorCode.INTERNAL_ERROR, "tools/call", Optional.of("lookup"),
                Optional.of("crm"), "psycopg2.errors.UniqueViolation at /opt/app/<server>.py", List.of()));

        HttpResponse<String> search = send("GET", "/incidents?ref=" + ref.value());
        assertThat(search.statusCode()).isEqualTo(303);
        assertThat(search.headers().firstValue("Location")).contains("/incidents/" + ref.value());
        HttpResponse<String> page = send("GET", "/incidents/" + ref.value());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("psycopg2.errors.UniqueViolation at /opt/app/&lt;server&gt;.py");
        assertThat(send("GET", "/incidents?code=INTERNAL_ERROR&tool=look").body()).contains(ref.value());
        assertThat(send("GET", "/incidents?code=TIMEOUT").body()).doesNotContain(ref.value());
        assertThat(send("GET", "/incidents/" + Ref.random().value()).statusCode()).isEqualTo(404);
        assertThat(send("GET", "/incidents?ref=%3Cscript%3E").statusCode()).isEqualTo(400);
    }

    @Test
    void aHostThatIsNotLoopbackNeedsAuth() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Console.builder().address("0.0.0.0", 0)
                        .allowedHosts(Set.of("ops.example")).feed(ConsoleFeed.of(java.time.Clock.systemUTC())).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("not a loopback address");
    }
}
