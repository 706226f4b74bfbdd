package dev.warden.audit;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The findings of one audit, one per (rule, tool, location): twenty probes that make one tool leak
 * the same trace at the same place are one finding. {@link Rule#NO_MACHINE_CODE} is one per tool;
 * {@link Rule#LEAK_TO_STDERR} and {@link Rule#DETAIL_ON_STDERR}, one rule each for every kind of
 * leak, are one per kind (their evidence's category).
 */
final class FindingSet {

    private final List<Finding> findings = new ArrayList<>();
    private final Set<String> seen = new HashSet<>();
    private final Set<String> published = new HashSet<>();

    void add(Finding finding) {
        // A path or host is kept per value until the end: it may turn out to be one the server publishes.
        String value = isPublishable(finding.rule()) ? finding.evidence().map(Evidence::fingerprint).orElse("") : "";
        if (seen.add(key(finding) + '\u0000' + value)) {
            findings.add(finding);
        }
    }

    /**
     * A path or host (by its fingerprint) the server gives any caller in a successful result, such
     * as the allowed directories a file server lists: repeating it in a failure tells the caller
     * nothing the server keeps to itself, so it is no leak.
     */
    void published(String fingerprint) {
        published.add(fingerprint);
    }

    private static boolean isPublishable(Rule rule) {
        return rule == Rule.LEAK_PATH || rule == Rule.LEAK_TOPOLOGY;
    }

    private static String key(Finding finding) {
        String location = switch (finding.rule()) {
            case NO_MACHINE_CODE -> "";
            case LEAK_TO_STDERR, DETAIL_ON_STDERR ->
                    finding.location() + '\u0000' + finding.evidence().map(Evidence::category).orElse("");
            default -> finding.location();
        };
        return finding.rule().id() + '\u0000' + finding.tool().orElse("") + '\u0000' + location;
    }

    void add(Rule rule, Optional<String> tool, String probe, String location, String message) {
        add(new Finding(rule, tool, probe, location, message, Optional.empty()));
    }

    void add(Rule rule, Optional<String> tool, String probe, String location, String message, Evidence evidence) {
        add(new Finding(rule, tool, probe, location, message, Optional.of(evidence)));
    }

    /** The findings, without paths and hosts the server published, one per (rule, tool, location). */
    List<Finding> all() {
        Set<String> kept = new HashSet<>();
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            boolean isPublished = isPublishable(f.rule())
                    && f.evidence().map(Evidence::fingerprint).filter(published::contains).isPresent();
            if (!isPublished && kept.add(key(f))) {
                out.add(f);
            }
        }
        return List.copyOf(out);
    }
}
