package dev.warden.console.page;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.console.feed.ToolStats;
import dev.warden.gateway.auditlog.AuditRecord;
import dev.warden.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A code on a tool's card links to the incidents behind that count: the same upstream and the same
 * hour, not every upstream's tool of that name over a day.
 */
class ToolsViewLinksTest {

    private static final Instant NOW = Instant.parse("2026-11-29T08:00:00Z");

    @Test
    void aCodesLinkNamesTheToolsUpstreamAndTheHour() {
        MutableClock clock = new MutableClock(NOW);
        ToolStats stats = new ToolStats(clock);
        for (String upstream : new String[] {"crm", "billing & co"}) {
            stats.record(new AuditRecord(NOW, "c#1", Optional.of(upstream), "tools/call", Optional.of("lookup"),
                    Duration.ofMillis(3), AuditRecord.Outcome.TOOL_ERROR, Optional.of("UPSTREAM_ERROR"),
                    Optional.of("ref_abcdefghijkmnpqr")));
        }

        String page = ToolsView.render(stats.lastHour(), Optional.empty(), NOW);

        assertThat(page).contains("href=\"/incidents?code=UPSTREAM_ERROR&amp;tool=lookup&amp;upstream=crm&amp;since=1h\"",
                "href=\"/incidents?code=UPSTREAM_ERROR&amp;tool=lookup&amp;upstream=billing%20%26%20co&amp;since=1h\"");
    }
}
