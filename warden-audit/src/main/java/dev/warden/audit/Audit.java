package dev.warden.audit;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One audit of one server: {@code Audit.custom().target(Target.stdio(command)).build().run()}.
 * Safe to point at production: destructive tools are not called unless allowed, every call is bounded
 * by the call timeout, the budget caps the requests and the rate spaces them.
 */
public final class Audit {

    /** Requests an audit sends at most unless told otherwise. */
    public static final int DEFAULT_BUDGET = 500;
    /** Requests per second unless told otherwise. */
    public static final int DEFAULT_RATE = 20;
    /** How long a call may take before it counts as unanswered, unless told otherwise. */
    public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(10);
    /**
     * How many call timeouts a call that keeps reporting progress may run in all, unless told
     * otherwise: a slow tool is given time, one that reports progress for ever is not.
     */
    public static final int DEFAULT_PROGRESS_FACTOR = 6;
    /** How many times a stdio server that stopped is started again, unless told otherwise. */
    public static final int DEFAULT_MAX_RELAUNCHES = 5;

    private final Builder settings;

    private Audit(Builder b) {
        this.settings = b;
    }

    public static Builder custom() {
        return new Builder();
    }

    /**
     * Connects, lists, runs the checks and the probes, and reports. A dry run calls nothing: its
     * report's {@link Report#skipped()} lists every call it would have made.
     *
     * @throws AuditException when the server cannot be reached or does not initialize
     */
    public Report run() {
        return new AuditRun(this).run();
    }

    /**
     * The calls a run would make, one line each ({@code tools/call read_file: required property
     * 'path' missing}), without making any: the server is connected and listed, nothing else.
     *
     * @throws AuditException when the server cannot be reached or does not initialize
     */
    public List<String> plan() {
        return new AuditRun(this).planOnly();
    }

    public Target target() {
        return settings.target;
    }

    public boolean allowDestructive() {
        return settings.allowDestructive;
    }

    public boolean dryRun() {
        return settings.dryRun;
    }

    public int budget() {
        return settings.budget;
    }

    public int rate() {
        return settings.rate;
    }

    public Duration callTimeout() {
        return settings.callTimeout;
    }

    /**
     * The longest a call may run when progress keeps extending it: each progress notification for
     * the call restarts its {@link #callTimeout()}, never past this. By default
     * {@value #DEFAULT_PROGRESS_FACTOR} call timeouts.
     */
    public Duration maxCallTime() {
        return settings.maxCallTime.orElse(settings.callTimeout.multipliedBy(DEFAULT_PROGRESS_FACTOR));
    }

    /** How many times a server that stopped (stdio, or connected here) is started again; HTTP never is. */
    public int maxRelaunches() {
        return settings.maxRelaunches;
    }

    public Clock clock() {
        return settings.clock;
    }

    public Sleeper sleeper() {
        return settings.sleeper;
    }

    public List<AuditCheck> checks() {
        return List.copyOf(settings.checks);
    }

    /** The two callers whose records the authorization probes cross, or none. */
    public List<Caller> callers() {
        return settings.callers;
    }

    public static final class Builder {
        private Target target;
        private boolean allowDestructive;
        private boolean dryRun;
        private int budget = DEFAULT_BUDGET;
        private int rate = DEFAULT_RATE;
        private Duration callTimeout = DEFAULT_CALL_TIMEOUT;
        private Optional<Duration> maxCallTime = Optional.empty();
        private int maxRelaunches = DEFAULT_MAX_RELAUNCHES;
        private Clock clock = Clock.systemUTC();
        private Sleeper sleeper = Sleeper.ofThread();
        private final List<AuditCheck> checks = new ArrayList<>();
        private List<Caller> callers = List.of();

        private Builder() {
        }

        public Builder target(Target target) {
            this.target = Objects.requireNonNull(target, "target");
            return this;
        }

        /** Whether tools that say they write, delete, send or pay may be called (by default not). */
        public Builder allowDestructive(boolean allow) {
            this.allowDestructive = allow;
            return this;
        }

        /** Connect and list, but call nothing: the report's skipped list is the plan. */
        public Builder dryRun(boolean dryRun) {
            this.dryRun = dryRun;
            return this;
        }

        /** The most requests the audit sends, the handshake and listings included. */
        public Builder budget(int maxRequests) {
            if (maxRequests < 1) {
                throw new IllegalArgumentException("budget must be at least 1, got " + maxRequests);
            }
            this.budget = maxRequests;
            return this;
        }

        /** The most requests per second. */
        public Builder rate(int perSecond) {
            if (perSecond < 1 || perSecond > 10_000) {
                throw new IllegalArgumentException("rate must be 1..10000 per second, got " + perSecond);
            }
            this.rate = perSecond;
            return this;
        }

        public Builder callTimeout(Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("callTimeout must be positive, got " + timeout);
            }
            this.callTimeout = timeout;
            return this;
        }

        /**
         * The longest a call that keeps reporting progress may run in all; at least the call
         * timeout when the audit is built. Unset, {@value #DEFAULT_PROGRESS_FACTOR} call timeouts.
         */
        public Builder maxCallTime(Duration max) {
            if (max == null || max.isNegative() || max.isZero()) {
                throw new IllegalArgumentException("maxCallTime must be positive, got " + max);
            }
            this.maxCallTime = Optional.of(max);
            return this;
        }

        /** How many times a server that stopped is started again before the audit stops probing (0: never). */
        public Builder maxRelaunches(int max) {
            if (max < 0 || max > 100) {
                throw new IllegalArgumentException("maxRelaunches must be 0..100, got " + max);
            }
            this.maxRelaunches = max;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** How the audit waits to keep to its rate (tests pass one that advances their clock). */
        public Builder sleeper(Sleeper sleeper) {
            this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
            return this;
        }

        /** A check to run once the server is listed; see {@link AuditCheck}. */
        public Builder check(AuditCheck check) {
            checks.add(Objects.requireNonNull(check, "check"));
            return this;
        }

        /**
         * Two callers the server tells apart (two API keys or tokens, or two accounts for its login
         * tool): each reads its own records through tools that need no argument, then asks for the
         * other's by identifier ({@link Rule#CROSS_CALLER_ACCESS}).
         */
        public Builder callers(Caller first, Caller second) {
            this.callers = List.of(Objects.requireNonNull(first, "first"), Objects.requireNonNull(second, "second"));
            return this;
        }

        public Audit build() {
            if (target == null) {
                throw new IllegalStateException("an audit needs a target: Target.stdio(command) or Target.http(url, headers)");
            }
            if (maxCallTime.isPresent() && maxCallTime.get().compareTo(callTimeout) < 0) {
                throw new IllegalStateException("maxCallTime (" + maxCallTime.get()
                        + ") must be at least the callTimeout (" + callTimeout + ")");
            }
            Builder copy = new Builder();
            copy.target = target;
            copy.allowDestructive = allowDestructive;
            copy.dryRun = dryRun;
            copy.budget = budget;
            copy.rate = rate;
            copy.callTimeout = callTimeout;
            copy.maxCallTime = maxCallTime;
            copy.maxRelaunches = maxRelaunches;
            copy.clock = clock;
            copy.sleeper = sleeper;
            copy.checks.addAll(checks);
            copy.callers = callers;
            return new Audit(copy);
        }
    }
}
