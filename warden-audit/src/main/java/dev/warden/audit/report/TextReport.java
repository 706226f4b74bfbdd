package dev.warden.audit.report;

import dev.warden.audit.Evidence;
import dev.warden.audit.Finding;
import dev.warden.audit.Grade;
import dev.warden.audit.Report;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The terminal summary. Findings are grouped by tool, the worst tool first (findings come worst
 * first); everything the server named is shown {@linkplain Untrusted#printable printable}, so a tool
 * name cannot move the cursor or recolour the terminal.
 */
public final class TextReport {

    private static final String SERVER_WIDE = "(the server as a whole)";

    private TextReport() {
    }

    static String render(Report report) {
        StringBuilder out = new StringBuilder();
        Grade grade = report.grade();
        out.append("warden audit of ").append(Untrusted.printable(report.target())).append('\n');
        out.append("transport: ").append(report.transport().label()).append('\n');
        out.append("server:   ").append(report.server()
                .map(s -> Untrusted.printable(s.name()) + " " + Untrusted.printable(s.version()))
                .orElse("did not initialize")).append('\n');
        out.append("grade:    ").append(shown(grade)).append('\n');
        if (report.coverage().partial() || grade instanceof Grade.Incomplete) {
            out.append("coverage: ").append(Untrusted.printable(report.coverage().summary())).append('\n');
        }
        out.append("findings: ").append(Counts.summary(report)).append('\n');
        out.append("requests: ").append(report.requests()).append(" in ")
                .append(String.format(Locale.ROOT, "%.1f s", report.took().toMillis() / 1000.0)).append('\n');
        for (String skip : report.skipped()) {
            out.append("skipped:  ").append(Untrusted.printable(skip)).append('\n');
        }
        byTool(report).forEach((tool, findings) -> {
            out.append('\n').append(tool).append('\n');
            for (Finding f : findings) {
                finding(out, f);
            }
        });
        if (report.findings().isEmpty()) {
            out.append("\nNo findings.\n");
        }
        out.append("\ngrade formula: ").append(Grade.FORMULA).append('\n');
        return out.toString();
    }

    /** {@code A (94/100)}, or {@code incomplete (no tool was probed: …)}: one wording for the terminal and the CLI. */
    public static String shown(Grade grade) {
        return switch (grade) {
            case Grade.Scored s -> s.letter() + " (" + s.score() + "/100)";
            case Grade.Incomplete i -> Grade.Incomplete.LABEL + " (" + Untrusted.printable(i.why()) + ")";
        };
    }

    private static Map<String, List<Finding>> byTool(Report report) {
        Map<String, List<Finding>> groups = new LinkedHashMap<>();
        for (Finding f : report.findings()) {
            String heading = f.tool().map(t -> "tool " + Untrusted.printable(t)).orElse(SERVER_WIDE);
            groups.computeIfAbsent(heading, k -> new ArrayList<>()).add(f);
        }
        return groups;
    }

    private static void finding(StringBuilder out, Finding f) {
        out.append("  ").append(String.format(Locale.ROOT, "%-6s", f.severity().name())).append(' ')
                .append(f.rule().id()).append("  ").append(f.rule().title())
                .append(" (CWE-").append(f.rule().cwe()).append(")\n");
        line(out, "found", Untrusted.printable(f.message()));
        line(out, "probe", Untrusted.printable(f.probe()));
        line(out, "where", Untrusted.printable(f.location()));
        f.evidence().ifPresent(e -> line(out, "evidence", evidence(e)));
        line(out, "fix", f.rule().remediation());
    }

    static String evidence(Evidence e) {
        return Untrusted.printable(e.category()) + ", fingerprint " + e.fingerprint() + ", " + e.length() + " chars";
    }

    private static void line(StringBuilder out, String label, String value) {
        out.append("         ").append(String.format(Locale.ROOT, "%-10s", label + ":")).append(value).append('\n');
    }
}
