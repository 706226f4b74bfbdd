package dev.warden.bench.load;

import static dev.warden.bench.load.StdioBench.median;
import static dev.warden.bench.load.StdioBench.percentile;

import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@link StdioBench} prints: the warmed table (echo latency, CPU per call and memory after
 * warm-up), the fresh-process table (the first tools/list of each start and its first calls), each
 * against the first contender, then the targets, met or missed and by how much.
 */
final class StdioReport {

    private final List<StdioBench.Contender> contenders;
    private final Map<String, StdioBench.Results> results;
    private final List<StdioBench.Target> targets;
    private final String base;

    StdioReport(List<StdioBench.Contender> contenders, Map<String, StdioBench.Results> results,
            List<StdioBench.Target> targets) {
        this.contenders = contenders;
        this.results = results;
        this.targets = targets;
        this.base = contenders.get(0).name();
    }

    /** Prints the tables and the targets; returns whether every target was met. */
    boolean print(int warmup, int rounds, int calls, StdioBench.Options options) {
        if (!options.freshOnly()) {
            warmed(warmup, rounds, calls);
            System.out.println();
        }
        fresh(options.first());
        boolean met = true;
        System.out.println();
        for (StdioBench.Target t : targets) {
            StdioBench.Results r = results.get(t.contender());
            StdioBench.Results b = results.get(base);
            if (t.fresh()) {
                met &= line(t.contender() + ": p50 of the first " + options.first() + " calls", firstP50(r), firstP50(b),
                        t.p50Ms(), "%.3f");
                met &= line(t.contender() + ": first tools/list", median(r.coldMillis), median(b.coldMillis), t.coldMs(),
                        "%.0f");
            } else {
                met &= line(t.contender() + ": echo p50 after warm-up", percentile(r.callNanos, 0.5) / 1e6,
                        percentile(b.callNanos, 0.5) / 1e6, t.p50Ms(), "%.3f");
                met &= line(t.contender() + ": cold start", median(r.coldMillis), median(b.coldMillis), t.coldMs(), "%.0f");
            }
        }
        return met;
    }

    private boolean line(String what, double value, double baseValue, double limit, String number) {
        double over = value - baseValue;
        boolean met = over <= limit;
        System.out.printf(Locale.ROOT, "- %s: %s + " + number + " ms (target ≤ + " + number + " ms): %s by " + number
                + " ms%n", what, base, over, limit, met ? "MET" : "MISSED", Math.abs(limit - over));
        return met;
    }

    private static double firstP50(StdioBench.Results r) {
        return percentile(r.firstNanos, 0.5) / 1e6;
    }

    private void warmed(int warmup, int rounds, int calls) {
        StdioBench.Results b = results.get(base);
        double baseP50 = percentile(b.callNanos, 0.50) / 1e6;
        double baseCold = median(b.coldMillis);
        System.out.printf(Locale.ROOT, "Echo: %d unmeasured calls, then %d rounds of %d sequential tools/call; "
                + "cold start: median of %d starts.%n%n", warmup, rounds, calls, b.coldMillis.size());
        System.out.println("| contender | echo p50 ms | p50 vs " + base + " | rounds' p50 ms | echo p99 ms "
                + "| CPU µs per call | RSS MiB | cold start ms | cold vs " + base + " | starts' range ms |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (StdioBench.Contender c : contenders) {
            StdioBench.Results r = results.get(c.name());
            double p50 = percentile(r.callNanos, 0.50) / 1e6;
            double cold = median(r.coldMillis);
            System.out.printf(Locale.ROOT, "| %s | %.3f | %+.3f | %.3f–%.3f | %.3f | %.0f | %.0f | %.0f | %+.0f "
                    + "| %.0f–%.0f |%n", c.name(), p50, p50 - baseP50, Collections.min(r.roundP50),
                    Collections.max(r.roundP50), percentile(r.callNanos, 0.99) / 1e6,
                    r.cpuMicros / (double) r.callNanos.size(), r.rssKib / 1024.0, cold, cold - baseCold,
                    Collections.min(r.coldMillis), Collections.max(r.coldMillis));
        }
    }

    private void fresh(int first) {
        StdioBench.Results b = results.get(base);
        System.out.printf(Locale.ROOT, "Fresh processes: %d starts of each, the order rotating; each timed to its first "
                + "tools/list, then its first %d echo calls.%n%n", b.coldMillis.size(), first);
        System.out.println("| contender | first tools/list ms | vs " + base + " | starts' range ms | first " + first
                + " calls p50 ms | vs " + base + " | p90 ms | starts' p50 range ms | tree CPU ms to the last call |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (StdioBench.Contender c : contenders) {
            StdioBench.Results r = results.get(c.name());
            double cold = median(r.coldMillis);
            System.out.printf(Locale.ROOT, "| %s | %.0f | %+.0f | %.0f–%.0f | %.3f | %+.3f | %.3f | %.3f–%.3f | %.0f |%n",
                    c.name(), cold, cold - median(b.coldMillis), Collections.min(r.coldMillis),
                    Collections.max(r.coldMillis), firstP50(r), firstP50(r) - firstP50(b),
                    percentile(r.firstNanos, 0.9) / 1e6, Collections.min(r.firstP50), Collections.max(r.firstP50),
                    median(r.freshCpuMillis));
        }
    }
}
