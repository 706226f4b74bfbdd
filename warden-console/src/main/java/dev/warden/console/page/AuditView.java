package dev.warden.console.page;

import dev.warden.gateway.auditlog.AuditRecord;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;

/** The audit log's tail: the gateway's last records, newest first, each failure's ref opening its incident. */
public final class AuditView {

    /** Where the records shown were read, as the page says it above them. */
    public enum Source {
        /** The gateway's audit store: what it holds, across restarts (and replicas, with PostgreSQL). */
        STORE("From the gateway's audit store.", "The audit store holds no record yet."),
        /** No audit store (audit is off): what this process saw since it started. */
        MEMORY("The gateway writes no audit log: this process's requests since it started.",
                "No request since the gateway started."),
        /** The audit store could not be read: what this process saw, instead. */
        MEMORY_STORE_UNREADABLE("The audit store could not be read now (the gateway's log says why): this process's "
                + "requests since it started.", "No request since the gateway started.");

        private final String note;
        private final String none;

        Source(String note, String none) {
            this.note = note;
            this.none = none;
        }
    }

    private AuditView() {
    }

    public static String render(List<AuditRecord> newestFirst, Source source, Instant now) {
        Markup m = new Markup().tag("<h1>Audit log, latest</h1><p class=\"muted\" id=\"audit-source\">")
                .tag(source.note).tag("</p>");
        if (newestFirst.isEmpty()) {
            m.tag("<p class=\"empty\">").tag(source.none).tag("</p>");
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
