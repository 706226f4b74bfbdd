package dev.warden.gateway.internal.limits;

import dev.warden.core.error.ErrorCode;
import dev.warden.gateway.config.Limits;
import dev.warden.gateway.internal.metrics.GatewayMetrics;
import dev.warden.gateway.shared.ClockTimeMeter;
import dev.warden.gateway.shared.SharedBreakers;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * What stands between the clients and one upstream: a token bucket per tool, a concurrency limit
 * (bulkhead), and circuit breakers (Resilience4j) that measure health, never the callers' mistakes:
 * the server's counts only requests it did not answer (any answer shows it alive); one per tool,
 * opt-in ({@code breaker.countToolErrors}), counts answers judged {@link Verdict#TOOLS_FAULT}, so a
 * failing tool is paused alone. A refusal is a {@link Refusal} naming what is paused, why and
 * until when. Why health only: docs/reference/gateway.md ("Breakers measure health").
 */
public final class Guard {

    /** Why a call did not go to the upstream, and when to try again. */
    public record Refusal(ErrorCode code, String message, Duration retryAfter, String reason) {
        public Refusal(ErrorCode code, String message, Duration retryAfter) {
            this(code, message, retryAfter, message);
        }
    }

    /** How a tool call went, once its answer is classified. */
    public enum Verdict {
        /** The tool did its job. */
        WORKED,
        /** The tool refused the call for a reason the caller can fix: not the tool's health. */
        CALLERS_FAULT,
        /** The tool failed in itself (an internal error). */
        TOOLS_FAULT
    }

    /** A call that was let through: report how it went, each part exactly once (later reports are ignored). */
    public interface Permit {
        /** The server answered (a result, or a JSON-RPC error): it is alive. */
        void answered();

        /** No usable answer: a timeout, a crash, garbage, a transport failure. Counts against the server. */
        void unanswered(Throwable cause);

        /** The client gave up (cancelled, or left): says nothing of the server or the tool. */
        void withdrawn();

        /** For a tool call: how the tool fared. Only {@link Verdict#TOOLS_FAULT} counts against the tool. */
        void judged(Verdict verdict);
    }

    /** Tools with a breaker of their own at most (only tools that answered get one); beyond, the server's alone. */
    static final int MAX_TOOL_BREAKERS = 1024;

    private final String upstream;
    private final Limits limits;
    private final Pausable server;
    private final Map<String, Pausable> tools = new ConcurrentHashMap<>();
    private final Bulkhead bulkhead;
    /** Each client's share of the bulkhead's places, so one client's burst cannot take them all. */
    private final ClientShares shares;
    private final Map<String, Bucket> toolBuckets = new ConcurrentHashMap<>();
    private final Clock clock;
    private final GatewayMetrics metrics;
    /** Rates counted with the other replicas, and breakers they opened (nothing, in one process). */
    private final SharedState shared;

    public Guard(String upstream, Limits limits, Clock clock, GatewayMetrics metrics) {
        this(upstream, limits, clock, metrics, SharedState.LOCAL);
    }

    public Guard(String upstream, Limits limits, Clock clock, GatewayMetrics metrics, SharedState shared) {
        this.shared = shared;
        this.upstream = upstream;
        this.limits = limits;
        this.clock = clock;
        this.metrics = metrics;
        this.shares = new ClientShares(limits.maxConcurrentPerClient(), limits.queueWait());
        this.server = new Pausable(upstream, limits.breaker(), clock, shared.breakers(), "it did not answer");
        this.bulkhead = Bulkhead.of(upstream, BulkheadConfig.custom()
                .maxConcurrentCalls(limits.maxConcurrent())
                .maxWaitDuration(limits.queueWait())
                .build());
    }

    /** The server's breaker (for metrics). */
    public CircuitBreaker breaker() {
        return server.breaker;
    }

    /** A tool's breaker, if it has one yet (for tests and metrics). */
    public Optional<CircuitBreaker> breaker(String tool) {
        return Optional.ofNullable(tools.get(tool)).map(p -> p.breaker);
    }

    /**
     * Whether {@link #admit} would not wait now for this client: neither the concurrency limit nor
     * the client's share of it is reached (it waits for a place up to the queue wait otherwise). A
     * hint: another call may take the last place.
     */
    public boolean admitsWithoutWaiting(Optional<ClientKey> client) {
        return bulkhead.getMetrics().getAvailableConcurrentCalls() > 0 && client.map(shares::freeFor).orElse(true);
    }

    /**
     * Lets one of {@code client}'s calls through, or says why not. The caller must report the
     * outcome to the permit. The client's share is taken before the upstream's place, so a call
     * waiting for its own client's earlier calls holds no place another client could use.
     */
    public Permit admit(Optional<String> tool, Optional<ClientKey> client) throws RefusedException {
        if (tool.isPresent() && limits.perTool().isPresent() && shared.rates().isPresent()) {
            Optional<Duration> wait = shared.rates().get().take("tool:" + upstream + ":" + tool.get(),
                    limits.perTool().get());
            if (wait.isPresent()) {
                throw new RefusedException(new Refusal(ErrorCode.RATE_LIMITED, "This tool is called too often; retry later.",
                        wait.get()));
            }
        } else if (tool.isPresent() && limits.perTool().isPresent()) {
            Limits.Rate rate = limits.perTool().get();
            Bucket bucket = toolBuckets.computeIfAbsent(tool.get(), t -> Bucket.builder()
                    .addLimit(Bandwidth.builder().capacity(rate.calls()).refillGreedy(rate.calls(), rate.period())
                            .build()).withCustomTimePrecision(new ClockTimeMeter(clock)).build());
            ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
            if (!probe.isConsumed()) {
                throw new RefusedException(new Refusal(ErrorCode.RATE_LIMITED, "This tool is called too often; retry later.",
                        Duration.ofNanos(probe.getNanosToWaitForRefill())));
            }
        }
        ClientShares.Place share = client.isEmpty() ? ClientShares.NONE : shares.enter(client.get()).orElseThrow(() -> {
            if (!Thread.currentThread().isInterrupted()) { // a call cancelled while it waited was not refused
                metrics.limitRefused(upstream, "maxConcurrentPerClient");
            }
            return new RefusedException(new Refusal(ErrorCode.RATE_LIMITED,
                    "This client has too many calls in flight to this server (maxConcurrentPerClient is "
                            + shares.perClient() + "); retry later.", Duration.ofSeconds(1),
                    "per-client concurrency limit of " + shares.perClient() + " (maxConcurrentPerClient) reached"));
        });
        // In one process (nothing shared) this costs nothing: no other replica can have paused anything.
        Optional<Refusal> elsewhere = shared.breakers() == SharedBreakers.none() ? Optional.empty()
                : server.openElsewhere("server", upstream).or(() -> tool.flatMap(this::openElsewhere));
        if (elsewhere.isPresent()) {
            share.release();
            throw new RefusedException(elsewhere.get());
        }
        if (!server.breaker.tryAcquirePermission()) {
            share.release();
            throw new RefusedException(server.refusal("The server " + upstream + " is paused",
                    "it did not answer"));
        }
        Optional<Pausable> toolBreaker = tool.map(tools::get);
        if (toolBreaker.isPresent() && !toolBreaker.get().breaker.tryAcquirePermission()) {
            server.breaker.releasePermission();
            share.release();
            throw new RefusedException(toolBreaker.get().refusal("The tool " + tool.get() + " is paused",
                    "it failed"));
        }
        boolean entered;
        try {
            entered = bulkhead.tryAcquirePermission();
        } catch (RuntimeException e) {
            entered = false;
        }
        if (!entered) {
            server.breaker.releasePermission();
            toolBreaker.ifPresent(p -> p.breaker.releasePermission());
            share.release();
            throw new RefusedException(new Refusal(ErrorCode.RATE_LIMITED,
                    "The upstream server is busy; retry later.", Duration.ofSeconds(1),
                    "concurrency limit of " + limits.maxConcurrent() + " reached"));
        }
        // How long a call took is measured, never decided, so it is read off the monotonic timer; when
        // a breaker opened and until when it pauses (what decides) is read off the clock.
        return new Admitted(tool, toolBreaker, share, System.nanoTime());
    }

    /** One admitted call's outstanding reports. */
    private final class Admitted implements Permit {
        private final Optional<String> tool;
        /** The tool's breaker whose permission this call holds (none when the tool had no breaker yet). */
        private final Optional<Pausable> held;
        /** The client's place, given back with the bulkhead's, on the first report of the server's health. */
        private final ClientShares.Place share;
        private final long start;
        private boolean health;
        private boolean judged;

        Admitted(Optional<String> tool, Optional<Pausable> held, ClientShares.Place share, long start) {
            this.tool = tool;
            this.held = held;
            this.share = share;
            this.start = start;
        }

        /** The upstream's place and the client's share of it, given back together. */
        private void givePlacesBack() {
            bulkhead.onComplete();
            share.release();
        }

        @Override
        public synchronized void answered() {
            if (!health) {
                health = true;
                givePlacesBack();
                server.breaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                if (tool.isEmpty()) {
                    judged = true;
                }
            }
        }

        @Override
        public synchronized void unanswered(Throwable cause) {
            if (!health) {
                health = true;
                givePlacesBack();
                server.breaker.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, cause);
            }
            // No answer says nothing of the tool: the server's breaker has counted it.
            judge(Verdict.CALLERS_FAULT);
        }

        @Override
        public synchronized void withdrawn() {
            if (!health) {
                health = true;
                givePlacesBack();
                server.breaker.releasePermission();
            }
            judge(Verdict.CALLERS_FAULT);
        }

        @Override
        public synchronized void judged(Verdict verdict) {
            judge(verdict);
        }

        private void judge(Verdict verdict) {
            if (judged) {
                return;
            }
            judged = true;
            if (tool.isEmpty()) {
                return;
            }
            long took = System.nanoTime() - start;
            Optional<Pausable> breaker = held.or(() -> verdict == Verdict.TOOLS_FAULT ? toolBreaker(tool.get())
                    : Optional.empty());
            if (breaker.isEmpty()) {
                return;
            }
            CircuitBreaker b = breaker.get().breaker;
            switch (verdict) {
                case WORKED -> b.onSuccess(took, TimeUnit.NANOSECONDS);
                case TOOLS_FAULT -> b.onError(took, TimeUnit.NANOSECONDS, TOOL_FAILED);
                case CALLERS_FAULT -> {
                    if (held.isPresent()) {
                        b.releasePermission();
                    }
                }
            }
        }
    }

    /**
     * A tool paused by another replica, while this one has not paused it itself (its own refusal,
     * with its own counts, says more).
     */
    private Optional<Refusal> openElsewhere(String tool) {
        Pausable own = tools.get(tool);
        if (own != null) {
            return own.openElsewhere("tool", tool);
        }
        return Pausable.openElsewhere(shared.breakers(), upstream + "/" + tool, clock, "tool", tool);
    }

    /** What a tool breaker records as the error (stackless: a verdict, not a bug). */
    private static final Exception TOOL_FAILED = new Exception("the tool failed", null, false, false) {
    };

    /** A tool's breaker, made when it first fails (a tool that never failed needs none). */
    private Optional<Pausable> toolBreaker(String tool) {
        Pausable existing = tools.get(tool);
        if (existing != null || tools.size() >= MAX_TOOL_BREAKERS) {
            return Optional.ofNullable(existing);
        }
        return Optional.of(tools.computeIfAbsent(tool, t -> new Pausable(upstream + "/" + t, limits.breaker(), clock,
                shared.breakers(), "it failed")));
    }

    /** A breaker and when it last opened: what a refusal says. */
    private static final class Pausable {
        final CircuitBreaker breaker;
        private final Limits.Breaker config;
        private final Clock clock;
        private volatile Instant openedAt = Instant.EPOCH;
        private final String name;

        Pausable(String name, Limits.Breaker config, Clock clock, SharedBreakers board, String failed) {
            this.name = name;
            this.board = board;
            this.config = config;
            this.clock = clock;
            this.breaker = CircuitBreaker.of(name, CircuitBreakerConfig.custom()
                    .failureRateThreshold(config.failureRatePercent())
                    .minimumNumberOfCalls(config.minimumCalls())
                    .slidingWindowSize(config.window())
                    .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                    .waitDurationInOpenState(config.openFor())
                    .permittedNumberOfCallsInHalfOpenState(Math.min(3, config.minimumCalls()))
                    .automaticTransitionFromOpenToHalfOpenEnabled(false)
                    .clock(clock) // when the open time is over: the same clock as the refusal's "until"
                    .build());
            this.breaker.getEventPublisher().onStateTransition(e -> {
                if (e.getStateTransition().getToState() == CircuitBreaker.State.OPEN) {
                    openedAt = clock.instant();
                    // The others pause it too; the counts are this replica's (what it saw).
                    CircuitBreaker.Metrics m = breaker.getMetrics();
                    board.opened(name, new SharedBreakers.Opening(openedAt.plus(config.openFor()), failed + " "
                            + m.getNumberOfFailedCalls() + " of its last " + m.getNumberOfBufferedCalls() + " calls"));
                }
            });
        }

        private final SharedBreakers board;

        /** Paused by another replica's breaker, while this one's is not open. */
        Optional<Refusal> openElsewhere(String kind, String shown) {
            if (breaker.getState() == CircuitBreaker.State.OPEN) {
                return Optional.empty();
            }
            return openElsewhere(board, name, clock, kind, shown);
        }

        /** The refusal's words are made only for a refusal: nothing is built per call when nothing is shared. */
        static Optional<Refusal> openElsewhere(SharedBreakers board, String name, Clock clock, String kind, String shown) {
            Instant now = clock.instant();
            return board.openUntil(name, now).map(o -> {
                String message = "The " + kind + " " + shown + " is paused until "
                        + o.until().truncatedTo(ChronoUnit.SECONDS) + ": " + o.why()
                        + " (seen by another replica).";
                return new Refusal(ErrorCode.UPSTREAM_ERROR, message, Duration.between(now, o.until()), message);
            });
        }

        /**
         * "The tool query is paused until 12:00:30Z: it failed 6 of its last 10 calls." The model
         * learns what is paused and when to come back; the operator the same, in the incident.
         */
        public Refusal refusal(String what, String failed) {
            Instant until = openedAt.plus(config.openFor());
            Duration left = Duration.between(clock.instant(), until);
            CircuitBreaker.Metrics m = breaker.getMetrics();
            String why = breaker.getState() == CircuitBreaker.State.HALF_OPEN
                    ? "it is being tried again with a few calls"
                    : failed + " " + m.getNumberOfFailedCalls() + " of its last " + m.getNumberOfBufferedCalls()
                            + " calls";
            String message = what + " until " + until.truncatedTo(ChronoUnit.SECONDS) + ": " + why + ".";
            return new Refusal(ErrorCode.UPSTREAM_ERROR, message, left.isNegative() ? Duration.ZERO : left, message);
        }
    }

    /** A call the guard refused; stackless, it is an answer, not a bug. */
    public static final class RefusedException extends Exception {
        private final Refusal refusal;

        RefusedException(Refusal refusal) {
            super(refusal.message(), null, false, false);
            this.refusal = refusal;
        }

        public Refusal refusal() {
            return refusal;
        }
    }
}
