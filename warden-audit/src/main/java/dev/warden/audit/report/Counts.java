package dev.warden.audit.report;

import dev.warden.audit.Finding;
import dev.warden.audit.Report;
import dev.warden.audit.Severity;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/** How many findings a report has of each severity, every severity present (zero included), worst first. */
final class Counts {

    private Counts() {
    }

    static Map<Severity, Integer> bySeverity(Report report) {
        Map<Severity, Integer> counts = new EnumMap<>(Severity.class);
        for (Severity s : Severity.values()) {
            counts.put(s, 0);
        }
        for (Finding f : report.findings()) {
            counts.merge(f.severity(), 1, Integer::sum);
        }
        return Collections.unmodifiableMap(counts);
    }

    /** {@code "2 high, 3 medium, 0 low, 1 note"}. */
    static String summary(Report report) {
        StringBuilder out = new StringBuilder();
        bySeverity(report).forEach((severity, n) -> {
            if (!out.isEmpty()) {
                out.append(", ");
            }
            out.append(n).append(' ').append(severity.name().toLowerCase(Locale.ROOT));
        });
        return out.toString();
    }
}
