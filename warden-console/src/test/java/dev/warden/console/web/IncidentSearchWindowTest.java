package dev.warden.console.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.console.feed.ConsoleFeed;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.incident.Incident;
import dev.warden.core.incident.IncidentStore;
import dev.warden.testkit.MutableClock;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The incident search reads a bounded number of the period's newest incidents before it filters by
 * name: when the period holds more, the page says the search did not reach back through all of it.
 */
class IncidentSearchWindowTest {

    private static final Instant NOW = Instant.parse("2026-11-29T08:00:00Z");

    /** The store's own contract, kept in a list: newest first, since, code, at most the limit. */
    private record Kept(List<Incident> newestFirst) implements IncidentStore {
        @Override
        public void record(Incident incident) {
        }

        @Override
        public Optional<Incident> find(Ref ref) {
            return newestFirst.stream().filter(i -> i.ref().equals(ref)).findFirst();
        }

        @Override
        public List<Incident> list(Instant since, Optional<Instant> until, Optional<ErrorCode> code, int limit) {
            return newestFirst.stream().filter(i -> !i.time().isBefore(since))
                    .filter(i -> until.map(i.time()::isBefore).orElse(true))
                    .filter(i -> code.map(c -> i.code() == c).orElse(true)).limit(limit).toList();
        }

        @Override
        public void close() {
        }
    }

    private static Incident incident(int secondsAgo, String tool) {
        return Incident.ofText(Ref.random(), NOW.minusSeconds(secondsAgo), ErrorCode.UPSTREAM_ERROR, "tools/call",
                Optional.of(tool), Optional.of("crm"), "upstream said no", List.of());
    }

    private static String search(List<Incident> newestFirst, String tool) {
        MutableClock clock = new MutableClock(NOW);
        Routes routes = new Routes(new Sources(List::of, ConsoleFeed.of(clock), Optional.of(new Kept(newestFirst)),
                Optional.empty(), clock));
        Answer page = routes.get("/incidents", Map.of("tool", tool, "since", "24h"));
        assertThat(page.status()).isEqualTo(200);
        return new String(page.body(), StandardCharsets.UTF_8);
    }

    @Test
    void aSearchThatDidNotReachTheStartOfItsPeriodSaysSo() {
        List<Incident> newestFirst = new ArrayList<>();
        for (int i = 0; i < Routes.READ; i++) {
            newestFirst.add(incident(i + 1, "busy_tool"));
        }
        newestFirst.add(incident(Routes.READ + 10, "rare_tool")); // within the day, past what one search reads

        String page = search(newestFirst, "rare");

        assertThat(page).contains("id=\"search-cut\"", "The newest " + Routes.READ + " incidents of the period were "
                + "searched");
    }

    @Test
    void aSearchThatReadTheWholePeriodSaysNothingMore() {
        String page = search(List.of(incident(5, "rare_tool"), incident(9, "busy_tool")), "rare");

        assertThat(page).contains("rare_tool").doesNotContain("search-cut");
    }

    private static String page(List<Incident> newestFirst, Map<String, String> query) {
        MutableClock clock = new MutableClock(NOW);
        Routes routes = new Routes(new Sources(List::of, ConsoleFeed.of(clock), Optional.of(new Kept(newestFirst)),
                Optional.empty(), clock));
        Answer page = routes.get("/incidents", query);
        assertThat(page.status()).isEqualTo(200);
        return new String(page.body(), StandardCharsets.UTF_8);
    }

    @Test
    void aSearchFromOneMinuteToAnotherListsOnlyThatPeriodsIncidents() {
        // NOW is 08:00; the period asked is 06:00 to 06:59 inclusive, in UTC.
        List<Incident> newestFirst = List.of(incident(60, "after_tool"), incident(3600 + 30, "edge_tool"),
                incident(5400, "inside_tool"), incident(3 * 3600, "before_tool"));

        String page = page(newestFirst, Map.of("from", "2026-11-29T06:00", "to", "2026-11-29T06:59"));

        assertThat(page).contains("inside_tool", "edge_tool").doesNotContain("after_tool", "before_tool");
        assertThat(page).contains("name=\"from\" id=\"from\" value=\"2026-11-29T06:00\"",
                "name=\"to\" id=\"to\" value=\"2026-11-29T06:59\"");
    }

    @Test
    void aTimeThatCannotBeReadIsSaidAndTheRestOfTheSearchStillRuns() {
        String page = page(List.of(incident(5, "rare_tool")), Map.of("from", "yesterday<b>", "tool", "rare"));

        assertThat(page).contains("id=\"unread-time\"", "Not a time: from", "rare_tool").doesNotContain("<b>");
    }
}
