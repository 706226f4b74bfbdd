package dev.warden.console.page;

import dev.warden.core.incident.Incident;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/** Recent incidents, searchable; each row opens to its original ({@link IncidentView}). */
public final class IncidentsView {

    /** Incidents one search reads from the store, newest first, before it matches names. */
    public static final int READ = 2000;

    /** Characters of the gist shown in a row. */
    static final int GIST = 140;

    private IncidentsView() {
    }

    /**
     * @param cut whether the store held more incidents in the period than one search reads: older
     *     ones were not searched
     * @param note a line in the console's own words above the results (a bad ref, say); empty for none
     */
    public static String render(IncidentSearch search, List<Incident> found, boolean more, boolean cut, String note,
                                Instant now) {
        Markup m = new Markup().tag("<h1>Incidents</h1>");
        form(m, search);
        if (cut) {
            m.tag("<p class=\"empty\" id=\"search-cut\">The newest ").number(READ).tag(" incidents of the period were "
                    + "searched, and it holds more: an older one may match too. <code>warden incidents list --code "
                    + "CODE</code> reads the whole store.</p>");
        }
        if (!note.isEmpty()) {
            m.tag("<p class=\"empty\">").text(note).tag("</p>");
        }
        if (found.isEmpty()) {
            m.tag("<p class=\"empty\">No incident matches.</p>");
            return Frame.page(Tab.INCIDENTS, "Incidents", now, m);
        }
        m.tag("<table id=\"incidents\"><thead><tr><th>Time (UTC)</th><th>Ref</th><th>Code</th><th>Upstream</th>")
                .tag("<th>Method / tool</th><th>Caller</th><th>What</th></tr></thead><tbody>");
        for (Incident i : found) {
            m.tag("<tr><td>").text(i.time().truncatedTo(ChronoUnit.SECONDS).toString())
                    .tag("</td><td class=\"mono\"><a class=\"ref\" href=\"/incidents/").uriComponent(i.ref().value())
                    .tag("\">").text(i.ref().value()).tag("</a></td><td class=\"mono\">").text(i.code().name())
                    .tag("</td><td class=\"mono\">").text(i.upstream().orElse("–")).tag("</td><td class=\"mono\">")
                    .text(i.method() + i.tool().map(t -> " " + t).orElse("")).tag("</td><td class=\"mono\">")
                    .text(i.subject().orElse("–")).tag("</td><td>").text(gist(i)).tag("</td></tr>");
        }
        m.tag("</tbody></table>");
        if (more) {
            m.tag("<p class=\"muted\">More match: narrow the search.</p>");
        }
        return Frame.page(Tab.INCIDENTS, "Incidents", now, m);
    }

    private static void form(Markup m, IncidentSearch s) {
        m.tag("<form class=\"search\" method=\"get\" action=\"/incidents\">")
                .tag("<label>Ref<input name=\"ref\" id=\"ref\" size=\"22\" placeholder=\"ref_…\" value=\"").text(s.ref())
                .tag("\"></label><label>Code<input name=\"code\" size=\"18\" placeholder=\"UPSTREAM_ERROR\" value=\"")
                .text(s.code()).tag("\"></label><label>Tool<input name=\"tool\" value=\"").text(s.tool())
                .tag("\"></label><label>Caller<input name=\"caller\" value=\"").text(s.caller())
                .tag("\"></label><label>Upstream<input name=\"upstream\" value=\"").text(s.upstream())
                .tag("\"></label><label>Since<select name=\"since\">");
        for (IncidentSearch.Since since : IncidentSearch.choices()) {
            m.tag("<option").tag(since == s.since() ? " selected" : "").tag(">").text(since.label()).tag("</option>");
        }
        m.tag("</select></label><label>From (UTC)<input type=\"datetime-local\" name=\"from\" id=\"from\" value=\"")
                .text(IncidentSearch.field(s.from(), false)).tag("\"></label><label>To (UTC)<input type=\"datetime-local\" "
                        + "name=\"to\" id=\"to\" value=\"").text(IncidentSearch.field(s.to(), true))
                .tag("\"></label><button type=\"submit\" id=\"search\">Search</button></form>");
        if (!s.unreadTimes().isEmpty()) {
            m.tag("<p class=\"empty\" id=\"unread-time\">Not a time: ").text(String.join(" and ", s.unreadTimes()))
                    .tag(" (a minute such as 2026-11-29T10:15, in UTC); the search used the other fields.</p>");
        }
    }

    /** Warden's reason, else the original's first line that is not blank, else the exception; cut. */
    static String gist(Incident i) {
        String g = i.reason().or(() -> i.original().flatMap(o -> o.lines().filter(l -> !l.isBlank()).findFirst()))
                .or(() -> i.chain().stream().findFirst().map(r -> r.type() + r.message().map(x -> ": " + x).orElse("")))
                .orElse("");
        return g.length() > GIST ? g.substring(0, GIST) + "…" : g;
    }
}
