package dev.warden.gateway.health;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The gateway's life as new calls see it: {@link Phase#SERVING} admits them; {@link #drain} turns
 * it to {@link Phase#DRAINING} at once (readiness false, new calls refused, retryably) while the
 * calls already admitted finish; it is {@link Phase#DRAINED} once none is left or the bound has
 * passed, whichever comes first. Deadlines are read from the injected clock; {@link #awaitDrained}
 * only says how often to look.
 */
public final class Lifecycle {

    public enum Phase { SERVING, DRAINING, DRAINED }

    private final Clock clock;
    private int inFlight;
    private Optional<Instant> deadline = Optional.empty();
    /** Completed when draining starts: what waits indefinitely (a listen stream) ends then, not at the bound. */
    private final java.util.concurrent.CompletableFuture<Void> draining = new java.util.concurrent.CompletableFuture<>();

    public Lifecycle(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** A new call starts if serving; each {@code true} must be matched by one {@link #exit}. */
    public synchronized boolean enter() {
        if (deadline.isPresent()) {
            return false;
        }
        inFlight++;
        return true;
    }

    /** A call admitted by {@link #enter} has ended. */
    public synchronized void exit() {
        if (inFlight == 0) {
            throw new IllegalStateException("exit without a matching enter");
        }
        inFlight--;
        notifyAll();
    }

    /** Calls admitted and not yet ended. */
    public synchronized int inFlight() {
        return inFlight;
    }

    /**
     * Stops admitting new calls from now on, and gives those in flight {@code bound} to finish. A
     * second call changes nothing: the first bound holds.
     */
    public synchronized void drain(Duration bound) {
        Objects.requireNonNull(bound, "bound");
        if (bound.isNegative()) {
            throw new IllegalArgumentException("a drain's bound must not be negative, got " + bound);
        }
        if (deadline.isEmpty()) {
            deadline = Optional.of(clock.instant().plus(bound));
        }
        draining.complete(null);
        notifyAll();
    }

    /**
     * Completes when draining starts. A call that would otherwise run until its client leaves (a
     * 2026-07-28 {@code subscriptions/listen} stream) ends then, gracefully, so the drain does not
     * wait its whole bound for it and the client listens again on another replica.
     */
    public java.util.concurrent.CompletionStage<Void> draining() {
        return draining.copy();
    }

    public synchronized Phase phase() {
        if (deadline.isEmpty()) {
            return Phase.SERVING;
        }
        return inFlight == 0 || !clock.instant().isBefore(deadline.get()) ? Phase.DRAINED : Phase.DRAINING;
    }

    /**
     * Waits until drained (the clock decides when the bound has passed; this looks every
     * {@code every}, and at once when a call ends). Returns whether every call in flight finished.
     */
    public synchronized boolean awaitDrained(Duration every) throws InterruptedException {
        if (deadline.isEmpty()) {
            throw new IllegalStateException("not draining: call drain first");
        }
        while (phase() == Phase.DRAINING) {
            wait(Math.max(1, every.toMillis()));
        }
        return inFlight == 0;
    }
}
