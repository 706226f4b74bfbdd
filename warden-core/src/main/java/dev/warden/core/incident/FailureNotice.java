package dev.warden.core.incident;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Says that a store cannot write at most once per period, without a stack trace: a full disk fails
 * every write, and a line (or forty) per request would bury the log it is reported in. The count of
 * failures since the last notice goes with the next one, and a recovery is said once.
 */
public final class FailureNotice {

    /** How often a store that keeps failing says so. */
    public static final Duration DEFAULT_PERIOD = Duration.ofMinutes(1);

    private final System.Logger log;
    private final String what;
    private final Clock clock;
    private final Duration period;
    private Instant lastSaid;
    private long unsaid;
    private boolean failing;

    public FailureNotice(System.Logger log, String what, Clock clock, Duration period) {
        this.log = Objects.requireNonNull(log, "log");
        this.what = Objects.requireNonNull(what, "what");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.period = Objects.requireNonNull(period, "period");
    }

    /** A write failed; logged if this is the first failure or a period has passed since the last notice. */
    public synchronized void failed(Exception e) {
        failing = true;
        Instant now = clock.instant();
        if (lastSaid != null && now.isBefore(lastSaid.plus(period))) {
            unsaid++;
            return;
        }
        String more = unsaid == 0 ? "" : " (" + unsaid + " more failures since the last notice)";
        log.log(System.Logger.Level.ERROR, "{0} cannot write: {1}{2}; notices repeat at most every {3}", what,
                String.valueOf(e), more, period);
        lastSaid = now;
        unsaid = 0;
    }

    /** A write succeeded: after failures, the recovery is logged once. */
    public synchronized void succeeded() {
        if (failing) {
            failing = false;
            log.log(System.Logger.Level.WARNING, "{0} writes again{1}", what,
                    unsaid == 0 ? "" : " (" + unsaid + " failures since the last notice)");
            lastSaid = null;
            unsaid = 0;
        }
    }

    public synchronized boolean failing() {
        return failing;
    }
}
