package dev.warden.audit.report;

import dev.warden.audit.Report;
import dev.warden.audit.Severity;
import java.util.Optional;

/** {@code --fail-on}: from which severity an audit fails a CI step (exit code 1). */
public enum FailOn {
    HIGH(Severity.HIGH), MEDIUM(Severity.MEDIUM), LOW(Severity.LOW), /** Never fails: report only. */ NONE(null);

    /** The exit code of an audit with no finding at or above the threshold. */
    public static final int OK = 0;
    /** The exit code of an audit with a finding at or above the threshold. */
    public static final int FAILED = 1;

    private final Severity threshold;

    FailOn(Severity threshold) {
        this.threshold = threshold;
    }

    /** The least severity that fails, or empty for {@link #NONE}. */
    public Optional<Severity> threshold() {
        return Optional.ofNullable(threshold);
    }

    /** {@link #FAILED} when {@code report} has a finding at least as severe as the threshold, else {@link #OK}. */
    public int exitCode(Report report) {
        return threshold != null && report.failsAt(threshold) ? FAILED : OK;
    }
}
