package dev.warden.core.incident;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

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
    /** Not a monitor: a virtual thread waiting for a monitor pins its carrier on JDK 21. */
    private final ReentrantLock lock = new ReentrantLock();
    private Instant lastSaid;
    private long unsaid;
    private volatile boolean failing;

    public FailureNotice(System.Logger log, String what, Clock clock, Duration period) {
        this.log = Objects.requireNonNull(log, "log");
        this.what = Objects.requireNonNull(what, "what");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.period = Objects.requireNonNull(period, "period");
    }

    /** A write failed; logged if this is the first failure or a period has passed since the last notice. */
    public void failed(Exception e) {
        String more;
        lock.lock();
        try {
            failing = true;
            Instant now = clock.instant();
            if (lastSaid != null && now.isBefore(lastSaid.plus(period))) {
                unsaid++;
                return;
            }
            more = unsaid == 0 ? "" : " (" + unsaid + " more failures since the last notice)";
            lastSaid = now;
            unsaid = 0;
        } finally {
            lock.unlock();
        }
        log.log(System.Logger.Level.ERROR, "{0} cannot write: {1}{2}; notices repeat at most every {3}", what,
                String.valueOf(e), more, period);
    }

    /** A write succeeded: after failures, the recovery is logged once. */
    public void succeeded() {
        if (!failing) {
            return; // every write that works comes here: no lock
        }
        long missed;
        lock.lock();
        try {
            if (!failing) {
                return;
            }
            failing = false;
            missed = unsaid;
            lastSaid = null;
            unsaid = 0;
        } finally {
            lock.unlock();
        }
        log.log(System.Logger.Level.WARNING, "{0} writes again{1}", what,
                missed == 0 ? "" : " (" + missed + " failures since the last notice)");
    }

    public boolean failing() {
        return failing;
    }
}
