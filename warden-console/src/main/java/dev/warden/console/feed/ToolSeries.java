package dev.warden.console.feed;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One (upstream, tool)'s last {@link #MINUTES} minutes: a ring of per-minute counts by outcome and
 * latency histograms, reused as minutes pass, so its memory never grows. Locked by itself.
 */
final class ToolSeries {

    static final int MINUTES = 60;

    private static final class Minute {
        long minute = Long.MIN_VALUE;
        final Map<String, Long> byOutcome = new TreeMap<>();
        final LatencyHistogram latency = new LatencyHistogram();

        void reset(long to) {
            minute = to;
            byOutcome.clear();
            latency.clear();
        }
    }

    private final Minute[] ring = new Minute[MINUTES];
    private long lastMinute = Long.MIN_VALUE;

    ToolSeries() {
        for (int i = 0; i < MINUTES; i++) {
            ring[i] = new Minute();
        }
    }

    synchronized void add(long minute, String outcome, Duration latency) {
        Minute slot = ring[(int) Math.floorMod(minute, (long) MINUTES)];
        if (slot.minute > minute) {
            return; // older than the window this slot now holds
        }
        if (slot.minute < minute) {
            slot.reset(minute);
        }
        String kept = slot.byOutcome.containsKey(outcome) || slot.byOutcome.size() < Outcomes.MAX_PER_MINUTE
                ? outcome : Outcomes.OTHER;
        slot.byOutcome.merge(kept, 1L, Long::sum);
        slot.latency.add(latency);
        lastMinute = Math.max(lastMinute, minute);
    }

    /** The minute of the latest call counted: what eviction goes by. */
    synchronized long lastMinute() {
        return lastMinute;
    }

    /** The {@link #MINUTES} minutes ending with {@code now}, oldest first, and their total. */
    synchronized ToolWindow window(String upstream, String tool, long now) {
        List<MinuteStats> minutes = new ArrayList<>(MINUTES);
        Map<String, Long> all = new TreeMap<>();
        LatencyHistogram latencies = new LatencyHistogram();
        for (long m = now - MINUTES + 1; m <= now; m++) {
            Minute slot = ring[(int) Math.floorMod(m, (long) MINUTES)];
            Instant start = Instant.ofEpochSecond(m * 60);
            if (slot.minute != m) {
                minutes.add(MinuteStats.empty(start));
                continue;
            }
            minutes.add(stats(start, slot.byOutcome, slot.latency));
            slot.byOutcome.forEach((k, v) -> all.merge(k, v, Long::sum));
            latencies.addAll(slot.latency);
        }
        return new ToolWindow(upstream, tool, minutes, stats(Instant.ofEpochSecond((now - MINUTES + 1) * 60), all,
                latencies));
    }

    private static MinuteStats stats(Instant start, Map<String, Long> byOutcome, LatencyHistogram latency) {
        long calls = 0;
        long errors = 0;
        for (Map.Entry<String, Long> e : byOutcome.entrySet()) {
            calls += e.getValue();
            errors += Outcomes.isError(e.getKey()) ? e.getValue() : 0;
        }
        return new MinuteStats(start, calls, errors, new TreeMap<>(byOutcome), latency.quantile(0.5),
                latency.quantile(0.95));
    }
}
