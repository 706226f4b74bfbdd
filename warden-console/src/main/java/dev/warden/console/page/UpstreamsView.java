package dev.warden.console.page;

import dev.warden.console.feed.ToolWindow;
import dev.warden.gateway.view.UpstreamState;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/** The first page: each upstream's state, breaker and connections, and its calls in the last hour. */
public final class UpstreamsView {

    private UpstreamsView() {
    }

    public static String render(List<UpstreamState> upstreams, List<ToolWindow> lastHour, Instant now) {
        Markup m = new Markup().tag("<h1>Upstreams</h1>");
        m.tag("<table id=\"upstreams\"><thead><tr><th>Upstream</th><th>Transport</th><th>Connected</th>")
                .tag("<th>Breaker</th><th>Failure rate</th><th>Connections</th><th>Pinned</th>")
                .tag("<th>Calls (1 h)</th><th>Errors (1 h)</th></tr></thead><tbody>");
        for (UpstreamState u : upstreams) {
            long calls = 0;
            long errors = 0;
            for (ToolWindow w : lastHour) {
                if (w.upstream().equals(u.name())) {
                    calls += w.total().calls();
                    errors += w.total().errors();
                }
            }
            m.tag("<tr><td class=\"mono\"><a href=\"/tools?upstream=").uriComponent(u.name()).tag("\">")
                    .text(u.name()).tag("</a></td><td>").text(u.transport()).tag(u.perClient() ? " (per client)" : "")
                    .tag("</td><td>").tag(u.connected() ? "yes" : "not yet").tag("</td><td><span class=\"state ")
                    .tag(u.breaker().name()).tag("\">").tag(u.breaker().name()).tag("</span></td><td>")
                    .tag(u.failureRate().map(r -> String.format(Locale.ROOT, "%.1f %%", r)).orElse("–"))
                    .tag("</td><td>").number(u.connections()).tag(" / ").number(u.maxConnections()).tag("</td><td>")
                    .tag(u.pinMode().map(p -> p.equals("BLOCK") ? "block" : "warn").orElse("no"))
                    .tag("</td><td>").number(calls).tag("</td><td>").number(errors).tag("</td></tr>");
        }
        m.tag("</tbody></table>");
        return Frame.page(Tab.UPSTREAMS, "Upstreams", now, m);
    }
}
