package dev.warden.console.feed;

import java.time.Duration;
import java.util.Optional;

/**
 * Latencies counted in a few fixed buckets (a small, constant memory per minute), from which
 * quantiles are read as the upper bound of the bucket they fall in: "p95 under 250 ms", which is
 * what an operator reads off a chart. Not thread-safe: its owner locks.
 */
final class LatencyHistogram {

    /** Upper bounds in milliseconds; a last bucket holds everything slower. */
    static final long[] BOUNDS_MS = {1, 2, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000};

    private final long[] counts = new long[BOUNDS_MS.length + 1];

    void add(Duration latency) {
        long ms = Math.max(0, latency.toMillis());
        int i = 0;
        while (i < BOUNDS_MS.length && ms > BOUNDS_MS[i]) {
            i++;
        }
        counts[i]++;
    }

    void addAll(LatencyHistogram other) {
        for (int i = 0; i < counts.length; i++) {
            counts[i] += other.counts[i];
        }
    }

    void clear() {
        java.util.Arrays.fill(counts, 0);
    }

    long total() {
        long n = 0;
        for (long c : counts) {
            n += c;
        }
        return n;
    }

    /**
     * The upper bound of the bucket holding the {@code q} quantile (0 &lt; q &le; 1); for the
     * slowest bucket, its lower bound (the largest bound). Empty when nothing was counted.
     */
    Optional<Duration> quantile(double q) {
        long n = total();
        if (n == 0) {
            return Optional.empty();
        }
        long rank = (long) Math.ceil(q * n);
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Optional.of(Duration.ofMillis(BOUNDS_MS[Math.min(i, BOUNDS_MS.length - 1)]));
            }
        }
        return Optional.of(Duration.ofMillis(BOUNDS_MS[BOUNDS_MS.length - 1]));
    }

    LatencyHistogram copy() {
        LatencyHistogram c = new LatencyHistogram();
        c.addAll(this);
        return c;
    }
}
