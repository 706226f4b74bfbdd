package dev.warden.console.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.console.Console;
import dev.warden.console.feed.ConsoleFeed;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.incident.FileIncidentStore;
import dev.warden.core.incident.Incident;
import dev.warden.gateway.auditlog.AuditRecord;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a browser receives from the console on its port: the links it follows, the tab it sees, the stylesheet. */
class ConsolePagesHttpTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    private Console console;
    private FileIncidentStore store;
    private final ConsoleFeed feed = ConsoleFeed.of(Clock.systemUTC());

    @AfterEach
    void stop() {
        if (console != null) {
            console.close();
        }
        if (store != null) {
            store.close();
        }
    }

    private void start() throws Exception {
        store = FileIncidentStore.open(dir.resolve("incidents"));
        console = Console.builder().upstreams(List::of).feed(feed).incidents(store).build().start();
    }

    private HttpResponse<String> get(String pathAndQuery) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(console.uri().toString().replaceAll("/$", "") + pathAndQuery))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private Ref failed(String tool) {
        Ref ref = Ref.random();
        Instant now = Instant.now();
        feed.record(new AuditRecord(now, "c#1", Optional.of("crm"), "tools/call", Optional.of(tool),
                Duration.ofMillis(3), AuditRecord.Outcome.TOOL_ERROR, Optional.of("UPSTREAM_ERROR"),
                Optional.of(ref.value())));
        store.record(Incident.ofText(ref, now, ErrorCode.UPSTREAM_ERROR, "tools/call", Optional.of(tool),
                Optional.of("crm"), "upstream said no", List.of()));
        return ref;
    }

    /** The href of the first link whose target starts so, as the browser reads the attribute. */
    private static String link(String page, String prefix) {
        int at = page.indexOf("href=\"" + prefix);
        assertThat(at).as("a link to %s in %s", prefix, page).isNotNegative();
        int start = at + "href=\"".length();
        return page.substring(start, page.indexOf('"', start)).replace("&amp;", "&");
    }

    @Test
    void aCodesLinkOpensWhateverTheLengthOfTheToolsName() throws Exception {
        start();
        // 5001 chars; the 200th is the first half of a surrogate pair, so the name is cut before it
        String tool = "a" + "\uD83D\uDD27".repeat(2500);
        Ref ref = failed(tool);

        String href = link(get("/tools").body(), "/incidents?code=");
        HttpResponse<String> incidents = get(href);

        assertThat(incidents.statusCode()).as(incidents.body()).isEqualTo(200);
        assertThat(href.length()).isLessThan(4096);
        assertThat(incidents.body()).contains(ref.value());
    }

    @Test
    void aRefPastedInUpperCaseOpensItsIncident() throws Exception {
        start();
        Ref ref = failed("lookup");

        HttpResponse<String> search = get("/incidents?ref=" + ref.value().toUpperCase(Locale.ROOT));
        assertThat(search.statusCode()).isEqualTo(303);
        assertThat(search.headers().firstValue("Location")).contains("/incidents/" + ref.value());
        HttpResponse<String> path = get("/incidents/" + ref.value().toUpperCase(Locale.ROOT));
        assertThat(path.statusCode()).isEqualTo(303);
        assertThat(path.headers().firstValue("Location")).contains("/incidents/" + ref.value());
        assertThat(get("/incidents?ref=%20" + ref.value().toUpperCase(Locale.ROOT) + "%20").statusCode()).isEqualTo(303);
        // a ref is ASCII: a letter that only lower-cases to one (the Kelvin sign to k) is still not a ref
        assertThat(get("/incidents?ref=ref_" + "%E2%84%AA".repeat(16)).statusCode()).isEqualTo(400);
    }

    @Test
    void anUpstreamsRefInAnOriginalLinksToItsIncidentWhenTheStoreHoldsIt() throws Exception {
        start();
        Ref upstream = failed("lookup"); // the upstream on Warden's SDK, writing to the same data directory
        Ref elsewhere = Ref.random(); // an upstream with a store of its own
        Ref gateway = Ref.random();
        store.record(Incident.ofText(gateway, Instant.now(), ErrorCode.UPSTREAM_ERROR, "tools/call",
                Optional.of("lookup"), Optional.of("crm"), "{\"code\":\"INTERNAL_ERROR\",\"ref\":\"" + upstream.value()
                        + "\"} then " + elsewhere.value() + ", x" + upstream.value() + " and " + gateway.value()
                        + " <b>" + upstream.value() + "</b>", List.of()));

        String page = get("/incidents/" + gateway.value()).body();

        String original = page.substring(page.indexOf("<pre id=\"original\">"), page.indexOf("</pre>",
                page.indexOf("<pre id=\"original\">")));
        assertThat(original.split("<a href=\"/incidents/" + upstream.value() + "\">" + upstream.value() + "</a>", -1))
                .as("the two standing alone are linked, not the one inside a word").hasSize(3);
        assertThat(original).contains("x" + upstream.value(), elsewhere.value(), gateway.value(), "&lt;b&gt;")
                .doesNotContain("/incidents/" + elsewhere.value(), "/incidents/" + gateway.value(), "<b>");
        HttpResponse<String> followed = get(link(original, "/incidents/"));
        assertThat(followed.statusCode()).isEqualTo(200);
        assertThat(followed.body()).contains("upstream said no");
    }

    @Test
    void aMissingIncidentIsAnIncidentsPage() throws Exception {
        start();

        HttpResponse<String> missing = get("/incidents/" + Ref.random().value());
        HttpResponse<String> notARef = get("/incidents/nothing");
        HttpResponse<String> noPage = get("/nothing");

        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).contains("<a href=\"/incidents\" class=\"here\">")
                .doesNotContain("<a href=\"/\" class=\"here\">");
        assertThat(notARef.body()).contains("<a href=\"/incidents\" class=\"here\">");
        assertThat(noPage.statusCode()).isEqualTo(404);
        assertThat(noPage.body()).as("a page that is none of the tabs highlights none").doesNotContain("class=\"here\"");
    }

    @Test
    void aLongUnbrokenStringInATableCellWraps() throws Exception {
        start();

        String css = get("/console.css").body();

        assertThat(css).contains("th,td{").satisfies(c -> {
            int rule = c.indexOf("th,td{");
            assertThat(c.substring(rule, c.indexOf('}', rule))).contains("overflow-wrap:anywhere");
        });
    }
}
