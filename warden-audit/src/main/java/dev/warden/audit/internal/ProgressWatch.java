package dev.warden.audit.internal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * The deadline of one call that may report progress: the call timeout from its start, restarted by
 * each progress notification for it, never past the maximum total (what the TypeScript SDK calls
 * resetTimeoutOnProgress with maxTotalTimeout). Time is the audit's clock, read when progress
 * arrives, so a test's clock decides what is late; the waiting itself is the caller's.
 */
public final class ProgressWatch {

    private final Clock clock;
    private final Duration idle;
    private final Instant end;
    private Instant lastSign;
    private int progressed;
    private CompletableFuture<Void> next = new CompletableFuture<>();

    public ProgressWatch(Clock clock, Instant start, Duration idle, Duration maxTotal) {
        if (maxTotal.compareTo(idle) < 0) {
            throw new IllegalArgumentException("maxTotal " + maxTotal + " is shorter than the idle timeout " + idle);
        }
        this.clock = clock;
        this.idle = idle;
        this.end = start.plus(maxTotal);
        this.lastSign = start;
    }

    /** Progress for the call arrived (called on the thread that reads the connection). */
    public void progressed() {
        CompletableFuture<Void> woken;
        synchronized (this) {
            lastSign = clock.instant();
            progressed++;
            woken = next;
            next = new CompletableFuture<>();
        }
        woken.complete(null);
    }

    /** Completes when the next progress arrives: what a wait for the answer also wakes on. */
    public synchronized CompletableFuture<Void> nextProgress() {
        return next;
    }

    /** How long the call may still take from now; zero or negative once it is late. */
    public synchronized Duration left() {
        Instant idleEnd = lastSign.plus(idle);
        Instant deadline = idleEnd.isBefore(end) ? idleEnd : end;
        return Duration.between(clock.instant(), deadline);
    }

    /** Whether the call ran out of its maximum total (rather than going quiet for a call timeout). */
    public synchronized boolean pastTotal() {
        return !clock.instant().isBefore(end);
    }

    /** How many progress notifications arrived for the call. */
    public synchronized int progressCount() {
        return progressed;
    }
}
