package dev.warden.core.session;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The timeouts of outgoing requests, of all sessions together: each armed request has a deadline
 * ({@link System#nanoTime} based), and one timer task waits for the earliest. Arming and disarming
 * change a map under a lock and, unless the new deadline is the earliest of all, nothing else: no
 * task is scheduled per request, no timer thread woken per request, and nothing stays behind once
 * a request is answered (a cancelled task per request would keep it, and its result, until its
 * deadline). Most requests are answered long before their deadline, so the timer mostly wakes
 * to find the deadline it waited for gone, and waits for the next earliest.
 */
final class Deadlines {

    /** What happens when a deadline passes. */
    interface Expiring {
        void expire();
    }

    static final Deadlines SHARED = new Deadlines(System::nanoTime, true);

    private static final ScheduledThreadPoolExecutor TIMER = timer();

    private final java.util.function.LongSupplier clock;
    /** False for a test's deadlines: nothing fires on its own, the test calls {@link #fireDue}. */
    private final boolean timed;
    private final Map<Expiring, Long> armed = new HashMap<>();
    /** The deadline the timer task waits for, when {@link #task} is set. */
    private long next;
    private ScheduledFuture<?> task;

    Deadlines(java.util.function.LongSupplier clock, boolean timed) {
        this.clock = clock;
        this.timed = timed;
    }

    /** Deadlines on a clock a test moves, fired only by {@link #fireDue}. */
    static Deadlines manual(java.util.function.LongSupplier clock) {
        return new Deadlines(clock, false);
    }

    /** Now, on this one's clock ({@link System#nanoTime} but in tests). */
    long now() {
        return clock.getAsLong();
    }

    /** Expires every deadline that has passed (what the timer does; tests call it after moving the clock). */
    void fireDue() {
        fire();
    }

    private static ScheduledThreadPoolExecutor timer() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "warden-session-timers");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }

    /** Sets (or moves) the deadline of {@code what}, {@code delayNanos} from now. */
    void arm(Expiring what, long delayNanos) {
        long deadline = now() + delayNanos;
        synchronized (this) {
            armed.put(what, deadline);
            if (timed && (task == null || deadline - next < 0)) {
                schedule(deadline);
            }
        }
    }

    void disarm(Expiring what) {
        synchronized (this) {
            armed.remove(what);
        }
    }

    /** Requests armed now (for tests). */
    synchronized int size() {
        return armed.size();
    }

    private void schedule(long deadline) {
        if (task != null) {
            task.cancel(false);
        }
        next = deadline;
        task = TIMER.schedule(this::fire, Math.max(0, deadline - now()), TimeUnit.NANOSECONDS);
    }

    private void fire() {
        List<Expiring> due = new ArrayList<>();
        synchronized (this) {
            task = null;
            long now = now();
            boolean more = false;
            long earliest = 0;
            for (Iterator<Map.Entry<Expiring, Long>> it = armed.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<Expiring, Long> e = it.next();
                long deadline = e.getValue();
                if (deadline - now <= 0) {
                    due.add(e.getKey());
                    it.remove();
                } else if (!more || deadline - earliest < 0) {
                    earliest = deadline;
                    more = true;
                }
            }
            if (more && timed) {
                schedule(earliest);
            }
        }
        for (Expiring e : due) {
            try {
                e.expire();
            } catch (RuntimeException ex) {
                System.getLogger(Deadlines.class.getName()).log(System.Logger.Level.WARNING, "a timeout failed", ex);
            }
        }
    }
}
