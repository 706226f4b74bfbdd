package dev.warden.console.page;

import dev.warden.gateway.auditlog.AuditRecord;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;

/** The audit log's tail: the gateway's last records, newest first, each failure's ref opening its incident. */
public final class AuditView {

    private AuditView() {
    }

    public static String render(List<AuditRecord> newestFirst, Instant now) {
        Markup m = new Markup().tag("<h1>Audit log, latest</h1>");
        if (newestFirst.isEmpty()) {
            m.tag("<p class=\"empty\">No request since the gateway started.</p>");
            return Frame.page(Tab.AUDIT, "Audit log", now, m);
        }
        m.tag("<table id=\"audit\"><thead><tr><th>Time (UTC)</th><th>Client</th><th>Caller</th><th>Upstream</th>")
                .tag("<th>Method</th><th>Tool</th><th>ms</th><th>Outcome</th><th>Code</th><th>Ref</th></tr></thead><tbody>");
        for (AuditRecord r : newestFirst) {
            m.tag("<tr><td>").text(r.time().truncatedTo(ChronoUnit.MILLIS).toString()).tag("</td><td class=\"mono\">")
                    .text(r.client()).tag("</td><td class=\"mono\">").text(r.subject().orElse("–"))
                    .tag("</td><td class=\"mono\">").text(r.upstream().orElse("–")).tag("</td><td class=\"mono\">")
                    .text(r.method()).tag("</td><td class=\"mono\">").text(r.tool().orElse("–")).tag("</td><td>")
                    .tag(String.format(Locale.ROOT, "%.1f", r.duration().toNanos() / 1e6)).tag("</td><td>")
                    .text(r.outcome().name()).tag("</td><td class=\"mono\">").text(r.code().orElse("–"))
                    .tag("</td><td class=\"mono\">");
            r.ref().ifPresent(ref -> m.tag("<a href=\"/incidents/").uriComponent(ref).tag("\">").text(ref).tag("</a>"));
            m.tag("</td></tr>");
        }
        m.tag("</tbody></table>");
        return Frame.page(Tab.AUDIT, "Audit log", now, m);
    }
}
