package dev.warden.console.feed;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A tool's calls in one minute (or, for {@link ToolWindow#total()}, a whole window).
 *
 * @param start the minute's first instant
 * @param byOutcome calls by how they ended: {@code OK}, {@code CANCELLED} or the Warden code
 * @param p50 the median latency, as the upper bound of its bucket; empty without calls
 * @param p95 the same for the 95th percentile
 */
public record MinuteStats(Instant start, long calls, long errors, SortedMap<String, Long> byOutcome,
        Optional<Duration> p50, Optional<Duration> p95) {

    public MinuteStats {
        Objects.requireNonNull(start, "start");
        byOutcome = Collections.unmodifiableSortedMap(new TreeMap<>(byOutcome));
        Objects.requireNonNull(p50, "p50");
        Objects.requireNonNull(p95, "p95");
    }

    static MinuteStats empty(Instant start) {
        return new MinuteStats(start, 0, 0, new TreeMap<>(), Optional.empty(), Optional.empty());
    }

    /** Errors as a share of calls, 0 to 1; 0 without calls. */
    public double errorRate() {
        return calls == 0 ? 0 : (double) errors / calls;
    }
}
