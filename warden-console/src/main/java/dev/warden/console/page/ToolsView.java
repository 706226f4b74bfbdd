package dev.warden.console.page;

import dev.warden.console.feed.MinuteStats;
import dev.warden.console.feed.ToolWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Per tool, the last hour: calls, error rate by code and latency, as figures and charts. */
public final class ToolsView {

    private ToolsView() {
    }

    /** @param upstream only this upstream's tools, when given */
    public static String render(List<ToolWindow> lastHour, Optional<String> upstream, Instant now) {
        Markup m = new Markup().tag("<h1>Tools, last hour</h1>");
        List<ToolWindow> shown = lastHour.stream().filter(w -> upstream.map(w.upstream()::equals).orElse(true))
                .toList();
        if (upstream.isPresent()) {
            m.tag("<p class=\"muted\">Upstream <span class=\"mono\">").text(upstream.get())
                    .tag("</span> only. <a href=\"/tools\">All upstreams</a></p>");
        }
        if (shown.isEmpty()) {
            m.tag("<p class=\"empty\">No tool was called in the last hour.</p>");
            return Frame.page(Tab.TOOLS, "Tools", now, m);
        }
        m.tag("<div class=\"cards\">");
        for (ToolWindow w : shown) {
            card(m, w);
        }
        m.tag("</div>");
        return Frame.page(Tab.TOOLS, "Tools", now, m);
    }

    private static void card(Markup m, ToolWindow w) {
        MinuteStats t = w.total();
        m.tag("<section class=\"card tool\"><h2><span class=\"muted\">").text(w.upstream()).tag(" / </span>")
                .text(w.tool()).tag("</h2><div class=\"figures\">").number(t.calls()).tag(" calls · ")
                .tag(percent(t.errorRate())).tag(" errors · p50 ").tag(ms(t.p50())).tag(" · p95 ").tag(ms(t.p95()))
                .tag("</div>");
        Map<String, String> classes = Charts.classes(t.byOutcome().keySet());
        m.tag("<div class=\"legend\">");
        for (String outcome : t.byOutcome().keySet()) {
            m.tag("<span><span class=\"swatch ").tag(classes.get(outcome)).tag("\"></span>").text(outcome)
                    .tag("</span>");
        }
        m.tag("</div>").append(Charts.calls(w.minutes(), classes));
        m.tag("<div class=\"legend\"><span><span class=\"swatch p50\"></span>p50</span>")
                .tag("<span><span class=\"swatch p95\"></span>p95</span></div>").append(Charts.latency(w.minutes()));
        m.tag("<table class=\"codes\"><thead><tr><th>Outcome</th><th>Calls</th><th>Share</th></tr></thead><tbody>");
        for (Map.Entry<String, Long> e : t.byOutcome().entrySet()) {
            m.tag("<tr><td class=\"mono\">");
            if (!e.getKey().equals("OK") && !e.getKey().equals("CANCELLED")) {
                // the incidents behind this count: this upstream's tool, this hour; the names as far as
                // the search keeps them, so that a long name's link stays within the query's bound
                m.tag("<a href=\"/incidents?code=").uriComponent(e.getKey()).tag("&amp;tool=")
                        .uriComponent(IncidentSearch.kept(w.tool())).tag("&amp;upstream=")
                        .uriComponent(IncidentSearch.kept(w.upstream())).tag("&amp;since=")
                        .tag(IncidentSearch.Since.H1.label()).tag("\">").text(e.getKey()).tag("</a>");
            } else {
                m.text(e.getKey());
            }
            m.tag("</td><td>").number(e.getValue()).tag("</td><td>")
                    .tag(percent((double) e.getValue() / Math.max(1, t.calls()))).tag("</td></tr>");
        }
        m.tag("</tbody></table></section>");
    }

    static String percent(double share) {
        return String.format(Locale.ROOT, "%.1f %%", share * 100);
    }

    /** A latency as its bucket's bound: "≤ 250 ms". */
    static String ms(Optional<Duration> d) {
        return d.map(v -> "≤ " + v.toMillis() + " ms").orElse("–");
    }
}
