package dev.warden.audit;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
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
    /** The value of each path or host finding, kept in memory only, to be compared with what is published. */
    private final Map<Finding, String> values = new IdentityHashMap<>();
    private final Map<String, Integer> valuesPerKey = new java.util.HashMap<>();
    private final Set<String> published = new HashSet<>();

    /** Values kept at most, per (rule, tool, location) and in all: a server cannot make the set grow without bound. */
    private static final int MAX_VALUES_PER_KEY = 8;
    private static final int MAX_VALUES = 2_000;
    /** A published directory is looked for among a path's first segments, in its first characters only. */
    private static final int MAX_PREFIX_SEGMENTS = 16;
    private static final int MAX_PREFIX_CHARS = 512;

    void add(Finding finding) {
        if (seen.add(key(finding))) {
            findings.add(finding);
        }
    }

    /**
     * A path or host leak, with its value: kept per value until the end, as the server may turn out
     * to publish it (see {@link #published}); the value never leaves this set.
     */
    void add(Finding finding, String value) {
        String key = key(finding);
        if (!isPublishable(finding.rule()) || values.size() >= MAX_VALUES
                || valuesPerKey.getOrDefault(key, 0) >= MAX_VALUES_PER_KEY) {
            add(finding); // past the bounds: reported as found, whatever the server publishes
        } else if (seen.add(key + '\u0000' + finding.evidence().map(Evidence::fingerprint).orElse(""))) {
            findings.add(finding);
            values.put(finding, value);
            valuesPerKey.merge(key, 1, Integer::sum);
        }
    }

    /**
     * A path or host the server gives any caller in a successful result, such as the allowed
     * directories a file server lists: repeating it in a failure, or a path under it, tells the
     * caller nothing the server keeps to itself, so it is no leak.
     */
    void published(String value) {
        if (!value.isEmpty() && published.size() < 10_000) {
            published.add(value);
        }
    }

    private boolean isPublished(Finding f) {
        String value = values.get(f);
        if (value == null || published.isEmpty()) {
            return false;
        }
        if (published.contains(value)) {
            return true;
        }
        if (f.rule() != Rule.LEAK_PATH) {
            return false;
        }
        // Under a published directory of two segments or more: "/srv/files" covers
        // "/srv/files/notes.txt"; a published "/home" covers nothing (every user is under it).
        int segments = 0;
        for (int slash = value.indexOf('/', 1); slash > 0 && slash <= MAX_PREFIX_CHARS
                && segments < MAX_PREFIX_SEGMENTS; slash = value.indexOf('/', slash + 1)) {
            segments++;
            if (segments >= 2 && published.contains(value.substring(0, slash))) {
                return true;
            }
        }
        return false;
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
            if (!isPublished(f) && kept.add(key(f))) {
                out.add(f);
            }
        }
        return List.copyOf(out);
    }
}
