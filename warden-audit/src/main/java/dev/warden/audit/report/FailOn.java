package dev.warden.audit.report;

import dev.warden.audit.Grade;
import dev.warden.audit.Report;
import dev.warden.audit.Severity;
import java.util.Optional;

/**
 * {@code --fail-on}: from which severity an audit fails a CI step (exit code 1). An audit that could
 * not probe the server fails it at every level, {@code none} included (exit code 3): a gate must not
 * pass what was never judged.
 */
public enum FailOn {
    HIGH(Severity.HIGH), MEDIUM(Severity.MEDIUM), LOW(Severity.LOW), /** Never fails: report only. */ NONE(null);

    /** The exit code of an audit with no finding at or above the threshold. */
    public static final int OK = 0;
    /** The exit code of an audit with a finding at or above the threshold. */
    public static final int FAILED = 1;
    /**
     * The exit code of an audit that could not judge the server: it did not initialize (no report),
     * or no tool of it could be probed (the report's grade is {@linkplain Grade.Incomplete incomplete}).
     */
    public static final int NOT_AUDITED = 3;

    private final Severity threshold;

    FailOn(Severity threshold) {
        this.threshold = threshold;
    }

    /** The least severity that fails, or empty for {@link #NONE}. */
    public Optional<Severity> threshold() {
        return Optional.ofNullable(threshold);
    }

    /**
     * {@link #NOT_AUDITED} when {@code report} is not graded; else {@link #FAILED} when it has a
     * finding at least as severe as the threshold, else {@link #OK}.
     */
    public int exitCode(Report report) {
        if (report.grade() instanceof Grade.Incomplete) {
            return NOT_AUDITED;
        }
        return threshold != null && report.failsAt(threshold) ? FAILED : OK;
    }
}
