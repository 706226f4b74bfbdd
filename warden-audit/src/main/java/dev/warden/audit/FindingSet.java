package dev.warden.audit;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The findings of one audit, one per (rule, tool, location): twenty probes that make one tool leak
 * the same trace at the same place are one finding. {@link Rule#NO_MACHINE_CODE} is one per tool;
 * {@link Rule#LEAK_TO_STDERR}, one rule for every kind of leak, is one per kind (its evidence's category).
 */
final class FindingSet {

    private final List<Finding> findings = new ArrayList<>();
    private final Set<String> seen = new HashSet<>();

    void add(Finding finding) {
        String location = switch (finding.rule()) {
            case NO_MACHINE_CODE -> "";
            case LEAK_TO_STDERR -> finding.location() + '\u0000' + finding.evidence().map(Evidence::category).orElse("");
            default -> finding.location();
        };
        if (seen.add(finding.rule().id() + '\u0000' + finding.tool().orElse("") + '\u0000' + location)) {
            findings.add(finding);
        }
    }

    void add(Rule rule, Optional<String> tool, String probe, String location, String message) {
        add(new Finding(rule, tool, probe, location, message, Optional.empty()));
    }

    void add(Rule rule, Optional<String> tool, String probe, String location, String message, Evidence evidence) {
        add(new Finding(rule, tool, probe, location, message, Optional.of(evidence)));
    }

    List<Finding> all() {
        return List.copyOf(findings);
    }
}
