package dev.warden.audit.report;

import static dev.warden.audit.report.Untrusted.html;

import dev.warden.audit.Finding;
import dev.warden.audit.Grade;
import dev.warden.audit.Report;
import dev.warden.audit.Severity;
import java.util.Locale;

/**
 * The self-contained HTML report: one file, inline style and script, nothing fetched when viewed
 * (see {@link HtmlPage}). Every string is {@linkplain Untrusted#html escaped}, ours included, so no
 * path lets a server's tool name become markup.
 */
final class HtmlReport {

    private HtmlReport() {
    }

    static String render(Report report) {
        Grade grade = report.grade();
        StringBuilder out = new StringBuilder(16_384);
        out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"").append(HtmlPage.CONTENT_SECURITY_POLICY).append("\">\n")
                .append("<meta name=\"referrer\" content=\"no-referrer\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>warden audit: ").append(html(report.server().map(Report.ServerInfo::name).orElse(report.target())))
                .append("</title>\n<style>\n").append(HtmlPage.STYLE).append("</style>\n</head>\n<body>\n");
        header(out, report, grade);
        counts(out, report);
        findings(out, report);
        footer(out, report);
        out.append("<script>").append(HtmlPage.SCRIPT).append("</script>\n</body>\n</html>\n");
        return out.toString();
    }

    private static void header(StringBuilder out, Report report, Grade grade) {
        String score = switch (grade) {
            case Grade.Scored s -> s.score() + "/100";
            case Grade.Incomplete i -> "not graded";
        };
        out.append("<header>\n<div class=\"grade ").append(grade.label()).append("\" id=\"grade\">")
                .append("<div class=\"letter\">").append(grade instanceof Grade.Scored ? grade.label() : "?").append("</div>")
                .append("<div class=\"score\">").append(score).append("<sup><a href=\"#formula\">1</a></sup></div></div>\n")
                .append("<div>\n<h1>warden audit</h1>\n")
                .append("<p class=\"meta\">Target: <span class=\"mono\" id=\"target\">").append(html(report.target())).append("</span></p>\n")
                .append("<p class=\"meta\">Transport: <span id=\"transport\">").append(html(report.transport().label())).append("</span></p>\n")
                .append("<p class=\"meta\">Server: <span class=\"mono\" id=\"server\">")
                .append(report.server().map(s -> html(s.name()) + " " + html(s.version())).orElse("did not initialize"))
                .append("</span></p>\n")
                .append("<p class=\"meta\">").append(report.requests()).append(" requests, started ")
                .append(html(report.started().toString())).append(", took ")
                .append(String.format(Locale.ROOT, "%.1f s", report.took().toMillis() / 1000.0)).append("</p>\n");
        if (grade instanceof Grade.Incomplete i) {
            out.append("<p class=\"meta\" id=\"coverage\"><strong>Incomplete, not graded</strong>: ")
                    .append(html(i.why())).append("</p>\n");
        } else if (report.coverage().partial()) {
            out.append("<p class=\"meta\" id=\"coverage\"><strong>Partial coverage</strong>: ")
                    .append(html(report.coverage().summary())).append("</p>\n");
        }
        out.append("</div>\n</header>\n");
    }

    private static void counts(StringBuilder out, Report report) {
        out.append("<div class=\"counts\" id=\"counts\">\n");
        Counts.bySeverity(report).forEach((severity, n) -> out
                .append("<label><input type=\"checkbox\" checked data-severity=\"").append(severity.name()).append("\"> ")
                .append("<span class=\"sev ").append(severity.name()).append("\">").append(n).append("</span> ")
                .append(severity.name().toLowerCase(Locale.ROOT)).append("</label>\n"));
        out.append("</div>\n");
    }

    private static void findings(StringBuilder out, Report report) {
        if (report.findings().isEmpty()) {
            out.append("<p class=\"empty\" id=\"no-findings\">No findings.</p>\n");
            return;
        }
        out.append("<p id=\"shown\">").append(report.findings().size()).append(" findings</p>\n")
                .append("<table id=\"findings\">\n<thead><tr><th>Severity</th><th>Rule</th><th>Finding</th><th>CWE</th>")
                .append("<th>Tool</th><th>Probe</th><th>Location</th><th>Evidence</th><th>Remediation</th></tr></thead>\n<tbody>\n");
        for (Finding f : report.findings()) {
            Severity s = f.severity();
            out.append("<tr data-severity=\"").append(s.name()).append("\">")
                    .append("<td><span class=\"sev ").append(s.name()).append("\">").append(s.name().toLowerCase(Locale.ROOT)).append("</span></td>")
                    .append("<td class=\"id\">").append(f.rule().id()).append("</td>")
                    .append("<td><strong>").append(html(f.rule().title())).append("</strong><br>").append(html(f.message())).append("</td>")
                    .append("<td class=\"id\">CWE-").append(f.rule().cwe()).append("</td>")
                    .append("<td><code>").append(f.tool().map(Untrusted::html).orElse("(server)")).append("</code></td>")
                    .append("<td>").append(html(f.probe())).append("</td>")
                    .append("<td><code>").append(html(f.location())).append("</code></td>")
                    .append("<td>").append(f.evidence().map(e -> html(e.category()) + "<br><code>" + e.fingerprint()
                            + "</code> (" + e.length() + " chars)").orElse("")).append("</td>")
                    .append("<td class=\"fix\">").append(html(f.rule().remediation())).append("</td></tr>\n");
        }
        out.append("</tbody>\n</table>\n");
    }

    private static void footer(StringBuilder out, Report report) {
        out.append("<footer>\n");
        if (!report.skipped().isEmpty()) {
            out.append("<p>Not called:</p>\n<ul id=\"skipped\">\n");
            report.skipped().forEach(skip -> out.append("<li><code>").append(html(skip)).append("</code></li>\n"));
            out.append("</ul>\n");
        }
        out.append("<p id=\"formula\"><sup>1</sup> Grade: ").append(html(Grade.FORMULA)).append(".</p>\n")
                .append("<p>Evidence is shown as category and fingerprint (the first 12 hex digits of the value's HMAC-SHA256 under a key drawn for this run and never written: it matches findings within this report, and confirms no guess), never as the value.</p>\n")
                .append("<p>warden audit ").append(html(SarifReport.version())).append("</p>\n</footer>\n");
    }
}
