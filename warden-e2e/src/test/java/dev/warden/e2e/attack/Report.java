package dev.warden.e2e.attack;

import java.util.List;
import java.util.Map;

/** The markdown table the suite prints: attack → held or failed, RSS, the honest client's p50, answers. */
final class Report {

    private Report() {
    }

    static String table(List<Row> rows, Scale scale, Map<String, String> expectedToFail) {
        StringBuilder out = new StringBuilder();
        out.append("| attack | verdict | RSS MiB before / peak / after (bound) | target CPU during (% of a core) | honest p50 ms before / during / after | answers expected / received | notes |\n");
        out.append("|---|---|---|---:|---|---|---|\n");
        for (Row row : rows) {
            String verdict = row.held() ? "held" : "**failed**";
            if (expectedToFail.containsKey(row.attack())) {
                verdict += " (expected to fail: " + expectedToFail.get(row.attack()) + ")";
            }
            String notes = String.join("; ", row.failures());
            if (!row.notes().isEmpty()) {
                notes = notes.isEmpty() ? row.notes() : notes + "; " + row.notes();
            }
            out.append("| %s | %s | %d / %d / %d (%d) | %.0f | %s / %s / %s | %d / %d | %s |\n".formatted(row.attack(), verdict,
                    row.rssBefore(), row.rssPeak(), row.rssAfter(), row.rssBound(), row.cpuPercentDuring(), millis(row.p50Before()),
                    millis(row.p50During()), millis(row.p50After()), row.expected(), row.received(), notes.replace("|", "\\|")));
        }
        out.append("\nMode: ").append(scale.name()).append(" (").append(Runtime.getRuntime().availableProcessors())
                .append(" cores; the attacking client at ").append(AttackerPriority.LOWERED ? "nice 19" : "the suite's priority")
                .append("). Verdict in this mode: ")
                .append(scale.full() ? "stays up, every request answered exactly once, honest client served, RSS peak under the bound, honest p50 during within 2x of the lower of before and after."
                        : "stays up, every request answered exactly once, honest client served (RSS and p50 reported, not judged).")
                .append('\n');
        return out.toString();
    }

    private static String millis(double value) {
        return Double.isNaN(value) ? "n/a" : "%.2f".formatted(value);
    }
}
