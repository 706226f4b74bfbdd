package dev.warden.console.page;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.console.feed.ToolStats;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.incident.Incident;
import dev.warden.gateway.auditlog.AuditRecord;
import dev.warden.gateway.view.UpstreamState;
import dev.warden.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every page with hostile names where names go: a tool named like a script, quotes and ampersands
 * that would close an attribute, a right-to-left override. What reaches the page is text.
 */
class EscapingTest {

    static final String SCRIPT = "<script>alert(1)</script>";
    static final String QUOTES = "a\"b'c&d<e>";
    static final String RLO = "evil\u202Etxt.exe";
    private static final Instant NOW = Instant.parse("2026-11-29T08:00:00Z");
    private final MutableClock clock = new MutableClock(NOW);

    private AuditRecord call(String tool, AuditRecord.Outcome outcome, Optional<String> code) {
        return new AuditRecord(clock.instant(), QUOTES + "#1", Optional.of("crm"), "tools/call", Optional.of(tool),
                Duration.ofMillis(12), outcome, code, Optional.of("ref_abcdefghijkmnpqr"), Optional.of(SCRIPT),
                Optional.empty());
    }

    @Test
    void aToolNamedLikeAScriptIsTextOnTheToolsPage() {
        ToolStats stats = new ToolStats(clock);
        stats.record(call(SCRIPT, AuditRecord.Outcome.OK, Optional.empty()));
        stats.record(call(QUOTES, AuditRecord.Outcome.TOOL_ERROR, Optional.of("VALIDATION_ERROR")));
        stats.record(call(RLO, AuditRecord.Outcome.TOOL_ERROR, Optional.of("<b>" + QUOTES)));

        String page = ToolsView.render(stats.lastHour(), Optional.empty(), NOW);

        assertSafe(page);
        assertThat(page).contains("&lt;script&gt;alert(1)&lt;/script&gt;", "a&#34;b&#39;c&amp;d&lt;e&gt;",
                "evil\\u202Etxt.exe", "<svg class=\"chart calls\"", "<rect class=\"ok\"", "<rect class=\"code-0\"",
                "<polyline class=\"p95\"");
        // the link to the tool's incidents carries the name encoded for a URL, inside the attribute
        assertThat(page).contains("/incidents?code=VALIDATION_ERROR&amp;tool=a%22b%27c%26d%3Ce%3E");
    }

    @Test
    void theUpstreamsPageEscapesWhatItShows() {
        String page = UpstreamsView.render(List.of(new UpstreamState(SCRIPT, "stdio", false,
                UpstreamState.Breaker.OPEN, Optional.of(75f), 1, 4, true, Optional.of("BLOCK"))), List.of(), NOW);

        assertSafe(page);
        assertThat(page).contains("&lt;script&gt;", "state OPEN", "75.0 %", "1 / 4");
    }

    @Test
    void anIncidentsOriginalAndArgumentsAreText() {
        Incident incident = Incident.ofText(new Ref("ref_abcdefghijkmnpqr"), NOW, ErrorCode.INTERNAL_ERROR, "tools/call",
                Optional.of(SCRIPT), Optional.of("crm"), "Traceback\n  <img src=x onerror=alert(2)>\n" + RLO, List.of())
                .withArguments("{\"q\":\"" + QUOTES + "\"}").withReason(SCRIPT);

        String one = IncidentView.render(incident, Set.of(), NOW);
        String list = IncidentsView.render(IncidentSearch.of(Map.of("tool", SCRIPT)), List.of(incident), false, false, "",
                NOW);

        assertSafe(one);
        assertSafe(list);
        assertThat(one).contains("<pre id=\"original\">Traceback\n  &lt;img src=x onerror=alert(2)&gt;\nevil\\u202Etxt.exe</pre>");
        assertThat(list).contains("href=\"/incidents/ref_abcdefghijkmnpqr\"",
                "name=\"tool\" value=\"&lt;script&gt;alert(1)&lt;/script&gt;\"");
    }

    @Test
    void theAuditTailAndThePinsEscapeWhatTheyShow() {
        String audit = AuditView.render(List.of(call(SCRIPT, AuditRecord.Outcome.OK, Optional.empty())), AuditView.Source.MEMORY, NOW);
        Incident pin = new Incident(Ref.random(), NOW, ErrorCode.BLOCKED, "definition-pin", Optional.of(SCRIPT),
                Optional.of("crm"), Optional.empty(), List.of(), List.of()).withReason("tool:" + SCRIPT + " changed");
        String pins = PinsView.render(List.of(), List.of(pin), true, NOW);

        assertSafe(audit);
        assertSafe(pins);
        assertThat(audit).contains("a&#34;b&#39;c&amp;d&lt;e&gt;#1");
        assertThat(pins).contains("tool:&lt;script&gt;alert(1)&lt;/script&gt; changed");
    }

    @Test
    void longNamesAreCutAndControlsShown() {
        assertThat(Html.text("x".repeat(1000))).hasSize(Html.MAX_LINE + 1).endsWith("…");
        assertThat(Html.text("a\u001b[31mb\nc")).isEqualTo("a\\u001B[31mb\\u000Ac");
        assertThat(Html.block("a\nb\u0007")).isEqualTo("a\nb\\u0007");
    }

    @Test
    void blanksAndIgnorableCodePointsAreShownOnEveryPage() {
        // no-break, narrow no-break and ideographic spaces, a variation selector, the combining grapheme
        // joiner, Hangul fillers, the braille blank, a tag letter and a supplementary variation selector
        String tool = "a\u00A0b\u202Fc\u3000d\uFE0Fe\u034Ff\u115Fg\u3164h\uFFA0i\u2800j\uDB40\uDC41k"
                + "\uDB40\uDD00l\u1680m\u2007n\u205Fo\u1160p";
        String shown = "a\\u00A0b\\u202Fc\\u3000d\\uFE0Fe\\u034Ff\\u115Fg\\u3164h\\uFFA0i\\u2800j\\u{E0041}k"
                + "\\u{E0100}l\\u1680m\\u2007n\\u205Fo\\u1160p";
        ToolStats stats = new ToolStats(clock);
        stats.record(call(tool, AuditRecord.Outcome.OK, Optional.empty()));
        Incident incident = Incident.ofText(new Ref("ref_abcdefghijkmnpqr"), NOW, ErrorCode.INTERNAL_ERROR, "tools/call",
                Optional.of(tool), Optional.of("crm"), "said: " + tool, List.of());

        assertThat(ToolsView.render(stats.lastHour(), Optional.empty(), NOW)).contains(shown);
        assertThat(IncidentView.render(incident, Set.of(), NOW)).contains(shown, "said: " + shown);
        // what is seen stays as it is: the ASCII space, letters of any script, an emoji
        assertThat(Html.text("caf\u00E9 \u4E2D\u6587 \uD83D\uDD27 \u0928\u093F")).isEqualTo(
                "caf\u00E9 \u4E2D\u6587 \uD83D\uDD27 \u0928\u093F");
    }

    /** No markup of the page's own came from a name: no script, image, handler or style from outside. */
    static void assertSafe(String page) {
        assertThat(page).doesNotContain("<script", "<img", "<b>").startsWith("<!DOCTYPE html>");
        assertThat(page).doesNotContain(" style=");
    }
}
