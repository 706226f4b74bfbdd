package dev.warden.audit.report;

import dev.warden.audit.Finding;
import dev.warden.audit.Grade;
import dev.warden.audit.Report;
import dev.warden.audit.Rule;
import dev.warden.audit.Severity;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The report as a pull-request comment (GitHub-flavoured Markdown): grade, counts, one table row
 * per finding, then what to do for each rule found. What the server named goes in code spans, where
 * Markdown, HTML, links and {@code @mentions} are not interpreted, and a {@code |} cannot end a cell.
 */
final class MarkdownReport {

    private MarkdownReport() {
    }

    static String render(Report report) {
        Grade grade = report.grade();
        StringBuilder out = new StringBuilder();
        out.append("### warden audit: grade ").append(switch (grade) {
            case Grade.Scored s -> s.letter() + " (" + s.score() + "/100)";
            case Grade.Incomplete i -> Grade.Incomplete.LABEL;
        }).append("\n\n");
        if (grade instanceof Grade.Incomplete i) {
            out.append("**Not graded**: ").append(prose(i.why())).append(".\n\n");
        } else if (report.coverage().partial()) {
            out.append("**Partial coverage**: ").append(prose(report.coverage().summary())).append(".\n\n");
        }
        out.append("Target ").append(code(report.target())).append(" over ").append(report.transport().label());
        report.server().ifPresent(s -> out.append(", server ").append(code(s.name() + " " + s.version())));
        out.append(", ").append(report.requests()).append(" requests.\n\n");
        out.append("| Severity | Findings |\n|---|---:|\n");
        Counts.bySeverity(report).forEach((s, n) -> out.append("| ").append(label(s)).append(" | ").append(n).append(" |\n"));
        if (report.findings().isEmpty()) {
            out.append("\nNo findings.\n");
        } else {
            out.append("\n| Severity | Rule | Finding | Tool | Probe | Location | Evidence |\n|---|---|---|---|---|---|---|\n");
            Set<Rule> found = new LinkedHashSet<>();
            for (Finding f : report.findings()) {
                found.add(f.rule());
                out.append("| ").append(label(f.severity()))
                        .append(" | ").append(f.rule().id()).append(" (CWE-").append(f.rule().cwe()).append(')')
                        .append(" | ").append(f.rule().title()).append(": ").append(prose(f.message()))
                        .append(" | ").append(f.tool().map(MarkdownReport::code).orElse("(server)"))
                        .append(" | ").append(code(f.probe()))
                        .append(" | ").append(code(f.location()))
                        .append(" | ").append(f.evidence().map(e -> code(e.category()) + " `" + e.fingerprint() + "`").orElse(""))
                        .append(" |\n");
            }
            out.append("\n**What to do**\n\n");
            for (Rule rule : found) {
                out.append("- **").append(rule.id()).append("** ").append(rule.title()).append(": ")
                        .append(rule.remediation()).append('\n');
            }
        }
        if (!report.skipped().isEmpty()) {
            out.append("\nNot called:\n\n");
            report.skipped().forEach(skip -> out.append("- ").append(code(skip)).append('\n'));
        }
        out.append("\n<sub>Grade: ").append(Grade.FORMULA.replace(">", "&gt;")).append(".</sub>\n");
        return out.toString();
    }

    private static String label(Severity severity) {
        String name = severity.name().toLowerCase(Locale.ROOT);
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    /**
     * {@code text} as a code span: fenced by one backtick more than its longest run of backticks, a
     * {@code |} escaped (GitHub splits table cells before it reads code spans).
     */
    static String code(String text) {
        String shown = Untrusted.printable(text).replace("|", "\\|");
        int longest = 0;
        int run = 0;
        for (int i = 0; i < shown.length(); i++) {
            run = shown.charAt(i) == '`' ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        String fence = "`".repeat(longest + 1);
        return fence + " " + shown + " " + fence;
    }

    /** {@code text} as literal prose: every ASCII punctuation backslash-escaped, {@code @} kept from mentioning. */
    static String prose(String text) {
        String shown = Untrusted.printable(text);
        StringBuilder out = new StringBuilder(shown.length() + 16);
        for (int i = 0; i < shown.length(); i++) {
            char c = shown.charAt(i);
            if (c == '@') {
                out.append("@\u200B");
            } else if (c < 128 && !Character.isLetterOrDigit(c) && c != ' ') {
                out.append('\\').append(c);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
