package dev.warden.console.page;

import dev.warden.core.incident.Incident;
import dev.warden.gateway.view.UpstreamState;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * Pinned definitions that changed: which upstreams are pinned and how, and each change the gateway
 * saw (its pin watch records one incident per change, never the definition's text).
 */
public final class PinsView {

    private PinsView() {
    }

    public static String render(List<UpstreamState> upstreams, List<Incident> changes, boolean storeKept,
                                Instant now) {
        Markup m = new Markup().tag("<h1>Pinned definitions</h1><table id=\"pinned\"><thead><tr><th>Upstream</th>")
                .tag("<th>Pinned</th><th>A change</th></tr></thead><tbody>");
        for (UpstreamState u : upstreams) {
            m.tag("<tr><td class=\"mono\">").text(u.name()).tag("</td><td>")
                    .tag(u.pinMode().isPresent() ? "yes" : "no").tag("</td><td>")
                    .tag(u.pinMode().map(p -> p.equals("BLOCK") ? "hides the tool and refuses its calls"
                            : "is reported, the definition used as listed").orElse("–")).tag("</td></tr>");
        }
        m.tag("</tbody></table><h2>Changes seen</h2>");
        if (!storeKept) {
            m.tag("<p class=\"empty\">The console was given no incident store: changes are in the gateway's log.</p>");
        } else if (changes.isEmpty()) {
            m.tag("<p class=\"empty\">No pinned definition changed in the incident store's time.</p>");
        } else {
            m.tag("<table id=\"changes\"><thead><tr><th>Time (UTC)</th><th>Upstream</th><th>Definition</th>")
                    .tag("<th>What</th><th>Ref</th></tr></thead><tbody>");
            for (Incident i : changes) {
                m.tag("<tr><td>").text(i.time().truncatedTo(ChronoUnit.SECONDS).toString())
                        .tag("</td><td class=\"mono\">").text(i.upstream().orElse("–")).tag("</td><td class=\"mono\">")
                        .text(i.tool().orElse("–")).tag("</td><td>").text(i.reason().orElse(""))
                        .tag("</td><td class=\"mono\"><a href=\"/incidents/").uriComponent(i.ref().value()).tag("\">")
                        .text(i.ref().value()).tag("</a></td></tr>");
            }
            m.tag("</tbody></table>");
        }
        return Frame.page(Tab.PINS, "Pins", now, m);
    }
}
