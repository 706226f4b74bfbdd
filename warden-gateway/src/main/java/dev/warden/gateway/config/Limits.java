package dev.warden.gateway.config;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * How much an upstream is trusted to fail or be asked, before the gateway answers for it.
 *
 * @param breaker when calls to it stop for a while after too many failed (timeouts, crashes,
 *     internal errors; not a tool saying no)
 * @param maxConcurrent requests in flight to it at once; more wait up to {@code queueWait}, then
 *     are refused as RATE_LIMITED
 * @param perTool calls allowed per tool, per period, for all clients together
 * @param maxConnections connections to it the gateway keeps open at once (for a stdio server,
 *     processes), across all clients: a per-client upstream starts one per client connection, and a
 *     client beyond this is refused as RATE_LIMITED instead of starting one more
 * @param maxConcurrentPerClient requests in flight to it at once from one client: an authenticated
 *     caller (all its sessions and stateless requests together), else one session (unauthenticated
 *     stateless clients, which only an address could tell apart, are held to none): more wait their
 *     turn, in order, up to {@code queueWait}, then are refused as RATE_LIMITED. A client that
 *     sends many calls at once then cannot fill the upstream (a single-threaded server answers them
 *     one by one) ahead of the others' calls
 */
public record Limits(Breaker breaker, int maxConcurrent, Duration queueWait, Optional<Rate> perTool,
        int maxConnections, int maxConcurrentPerClient) {

    /** Connections (processes) per upstream unless configured: more than a shared upstream ever needs (at most nine). */
    public static final int DEFAULT_MAX_CONNECTIONS = 16;

    /**
     * One client's requests in flight to one upstream unless configured: enough for an agent's
     * parallel calls, few enough that a flood of one client's calls keeps a single-threaded
     * server's queue short for the others.
     */
    public static final int DEFAULT_MAX_CONCURRENT_PER_CLIENT = 8;

    public Limits {
        Objects.requireNonNull(breaker, "breaker");
        if (maxConcurrent < 1) {
            throw new IllegalArgumentException("maxConcurrent must be at least 1, got " + maxConcurrent);
        }
        if (queueWait == null || queueWait.isNegative()) {
            throw new IllegalArgumentException("queueWait must not be negative, got " + queueWait);
        }
        Objects.requireNonNull(perTool, "perTool");
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be at least 1, got " + maxConnections);
        }
        if (maxConcurrentPerClient < 1) {
            throw new IllegalArgumentException("maxConcurrentPerClient must be at least 1, got "
                    + maxConcurrentPerClient);
        }
    }

    /** With the default {@link #DEFAULT_MAX_CONCURRENT_PER_CLIENT}. */
    public Limits(Breaker breaker, int maxConcurrent, Duration queueWait, Optional<Rate> perTool, int maxConnections) {
        this(breaker, maxConcurrent, queueWait, perTool, maxConnections, DEFAULT_MAX_CONCURRENT_PER_CLIENT);
    }

    /** With the defaults {@link #DEFAULT_MAX_CONNECTIONS} and {@link #DEFAULT_MAX_CONCURRENT_PER_CLIENT}. */
    public Limits(Breaker breaker, int maxConcurrent, Duration queueWait, Optional<Rate> perTool) {
        this(breaker, maxConcurrent, queueWait, perTool, DEFAULT_MAX_CONNECTIONS);
    }

    public static Limits ofDefaults() {
        return new Limits(Breaker.ofDefaults(), 64, Duration.ofSeconds(5), Optional.empty());
    }

    public Limits withBreaker(Breaker breaker) {
        return new Limits(breaker, maxConcurrent, queueWait, perTool, maxConnections, maxConcurrentPerClient);
    }

    public Limits withMaxConcurrent(int max) {
        return new Limits(breaker, max, queueWait, perTool, maxConnections, maxConcurrentPerClient);
    }

    public Limits withPerTool(Optional<Rate> rate) {
        return new Limits(breaker, maxConcurrent, queueWait, rate, maxConnections, maxConcurrentPerClient);
    }

    public Limits withMaxConnections(int max) {
        return new Limits(breaker, maxConcurrent, queueWait, perTool, max, maxConcurrentPerClient);
    }

    public Limits withMaxConcurrentPerClient(int max) {
        return new Limits(breaker, maxConcurrent, queueWait, perTool, maxConnections, max);
    }

    /**
     * Opens when at least {@code failureRatePercent} of the last {@code window} calls failed (after
     * {@code minimumCalls}); stays open {@code openFor}, then lets a few calls try. Only health
     * counts (no answer in time, a crash, garbage, a transport failure, an HTTP 5xx): a tool's
     * {@code isError} answer cannot tell a caller's mistake from the tool failing, so it counts
     * against the tool's breaker only where {@code countToolErrors} opts in.
     */
    public record Breaker(int failureRatePercent, int minimumCalls, int window, Duration openFor,
            boolean countToolErrors) {
        public Breaker {
            if (failureRatePercent < 1 || failureRatePercent > 100) {
                throw new IllegalArgumentException("failureRatePercent must be 1..100, got " + failureRatePercent);
            }
            if (minimumCalls < 1 || window < minimumCalls) {
                throw new IllegalArgumentException("window (" + window + ") must be at least minimumCalls ("
                        + minimumCalls + "), which must be at least 1");
            }
            if (openFor == null || openFor.isNegative() || openFor.isZero()) {
                throw new IllegalArgumentException("openFor must be positive, got " + openFor);
            }
        }

        /** Health only: no tool error counts. */
        public Breaker(int failureRatePercent, int minimumCalls, int window, Duration openFor) {
            this(failureRatePercent, minimumCalls, window, openFor, false);
        }

        public static Breaker ofDefaults() {
            return new Breaker(50, 10, 20, Duration.ofSeconds(30));
        }

        /** The same, with the tools' own failures ({@code isError} answers classified as the server's) counted or not. */
        public Breaker withCountToolErrors(boolean count) {
            return new Breaker(failureRatePercent, minimumCalls, window, openFor, count);
        }
    }

    /** {@code calls} per {@code period}: written {@code 60/m}, {@code 10/s}, {@code 1000/h}. */
    public record Rate(long calls, Duration period) {
        public Rate {
            if (calls < 1) {
                throw new IllegalArgumentException("a rate needs at least 1 call, got " + calls);
            }
            if (period == null || period.isNegative() || period.isZero()) {
                throw new IllegalArgumentException("a rate's period must be positive, got " + period);
            }
        }

        public static Rate parse(String text) {
            String t = text.trim().toLowerCase(Locale.ROOT);
            int slash = t.indexOf('/');
            if (slash <= 0) {
                throw new IllegalArgumentException("a rate looks like 60/m, 10/s or 1000/h, got \"" + text + "\"");
            }
            long calls;
            try {
                calls = Long.parseLong(t.substring(0, slash).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("a rate looks like 60/m, 10/s or 1000/h, got \"" + text + "\"");
            }
            Duration period = switch (t.substring(slash + 1).trim()) {
                case "s", "sec", "second" -> Duration.ofSeconds(1);
                case "m", "min", "minute" -> Duration.ofMinutes(1);
                case "h", "hour" -> Duration.ofHours(1);
                default -> throw new IllegalArgumentException("a rate looks like 60/m, 10/s or 1000/h, got \""
                        + text + "\"");
            };
            return new Rate(calls, period);
        }
    }
}
