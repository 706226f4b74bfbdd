package dev.warden.bench.load;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code scripts/bench-gateway} prints: the table of every cell, a summary per contender
 * (issue 36's figures: cold start, new session, p50 at one client, req/s and CPU per request at the
 * highest concurrency, echo and failure apart, memory after the load), and each of issue 36's
 * targets, met or missed and by how much, for {@code warden} and, when present, {@code baseline}.
 */
final class LoadReport {

    private final List<String> names;
    private final int[] concurrency;
    private final Map<String, Long> pids;
    private final Map<String, List<Double>> coldMillis;
    private final Map<McpHttpLoad.Key, McpHttpLoad.Samples> cells = new LinkedHashMap<>();
    private final Map<String, List<Long>> sessionNanos = new LinkedHashMap<>();

    LoadReport(List<String> names, int[] concurrency, Map<String, Long> pids, Map<String, List<Double>> coldMillis) {
        this.names = names;
        this.concurrency = concurrency;
        this.pids = pids;
        this.coldMillis = coldMillis;
    }

    void session(String name, long nanos) {
        sessionNanos.computeIfAbsent(name, n -> new ArrayList<>()).add(nanos);
    }

    void add(McpHttpLoad.Key key, McpHttpLoad.Samples s) {
        McpHttpLoad.Samples all = cells.computeIfAbsent(key, k -> new McpHttpLoad.Samples());
        all.nanos.addAll(s.nanos);
        all.requests += s.requests;
        all.errors += s.errors;
        all.seconds += s.seconds;
        all.ownCpuMicros += s.ownCpuMicros;
        all.treeCpuMicros += s.treeCpuMicros;
    }

    /** Prints everything; returns whether every target that could be judged was met. */
    boolean print() {
        printCells();
        System.out.println();
        printSummary();
        System.out.println();
        boolean met = true;
        for (String gateway : List.of("warden", "baseline")) {
            if (names.contains(gateway)) {
                met &= printTargets(gateway);
            }
        }
        return met;
    }

    private void printCells() {
        System.out.println("| call | clients | contender | p50 ms | p99 ms | req/s | p50 vs direct | req/s vs direct "
                + "| CPU µs/req process | CPU µs/req tree |");
        System.out.println("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|");
        for (String call : McpHttpLoad.CALLS.keySet()) {
            for (int c : concurrency) {
                McpHttpLoad.Samples direct = cells.get(new McpHttpLoad.Key(call, c, "direct"));
                for (String name : names) {
                    McpHttpLoad.Samples s = cells.get(new McpHttpLoad.Key(call, c, name));
                    double p50 = percentile(s.nanos, 0.50);
                    String vsP50 = direct == null ? "" : fmt("%.2f×", p50 / percentile(direct.nanos, 0.5));
                    String vsRps = direct == null ? "" : fmt("%.2f×", rps(s) / rps(direct));
                    System.out.printf(Locale.ROOT, "| %s | %d | %s | %.2f | %.2f | %.0f | %s | %s | %s | %s |%s%n", call,
                            c, name, p50, percentile(s.nanos, 0.99), rps(s), vsP50, vsRps, cpu(s, false), cpu(s, true),
                            s.errors > 0 ? " (" + s.errors + " transport errors)" : "");
                }
            }
        }
    }

    private void printSummary() {
        int top = Arrays.stream(concurrency).max().orElseThrow();
        int one = Arrays.stream(concurrency).min().orElseThrow();
        System.out.printf(Locale.ROOT, "| contender | cold start ms | new session ms | echo p50 ms (C=%d) | echo req/s (C=%d) "
                + "| echo CPU µs/req (C=%d) | failing p50 ms (C=%d) | failing req/s (C=%d) | failing CPU µs/req (C=%d) "
                + "| RSS MiB after |%n", one, top, top, one, top, top);
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (String name : names) {
            McpHttpLoad.Samples e1 = cells.get(new McpHttpLoad.Key("echo", one, name));
            McpHttpLoad.Samples eTop = cells.get(new McpHttpLoad.Key("echo", top, name));
            McpHttpLoad.Samples f1 = cells.get(new McpHttpLoad.Key("failing", one, name));
            McpHttpLoad.Samples fTop = cells.get(new McpHttpLoad.Key("failing", top, name));
            Long pid = pids.get(name);
            String rss = pid == null ? "" : fmt("%.0f / %.0f", ProcStats.rssKib(pid) / 1024.0,
                    ProcStats.treeRssKib(pid) / 1024.0);
            System.out.printf(Locale.ROOT, "| %s | %s | %s | %.2f | %.0f | %s / %s | %.2f | %.0f | %s / %s | %s |%n", name,
                    cold(name), session(name), percentile(e1.nanos, 0.5), rps(eTop), cpu(eTop, false), cpu(eTop, true),
                    percentile(f1.nanos, 0.5), rps(fTop), cpu(fTop, false), cpu(fTop, true), rss);
        }
        System.out.println();
        System.out.println("Cold start: median (range) from process start to the first initialize answered on its port. "
                + "New session: p50 (p90) of initialize + notifications/initialized. CPU and RSS: process / process "
                + "tree (the gateway's own process; with its children: the node upstream, supergateway's per-session "
                + "servers); CPU of exactly the cell's calls.");
    }

    private boolean printTargets(String gateway) {
        int top = Arrays.stream(concurrency).max().orElseThrow();
        int one = Arrays.stream(concurrency).min().orElseThrow();
        System.out.println("Issue 36's targets for " + gateway + ":");
        boolean met = true;
        met &= target(gateway + " cold start ≤ mcp-proxy's", median(coldMillis.get(gateway)),
                median(coldMillis.get("mcp-proxy")), "ms");
        met &= target(gateway + " new session p50 ≤ mcp-proxy's", sessionP50(gateway), sessionP50("mcp-proxy"), "ms");
        for (String call : McpHttpLoad.CALLS.keySet()) {
            met &= target(gateway + " " + call + " p50 at C=" + one + " ≤ direct's (the upstream's own HTTP)",
                    p50(call, one, gateway), p50(call, one, "direct"), "ms");
        }
        McpHttpLoad.Samples e = cells.get(new McpHttpLoad.Key("echo", top, gateway));
        McpHttpLoad.Samples f = cells.get(new McpHttpLoad.Key("failing", top, gateway));
        if (pids.containsKey(gateway)) {
            met &= target(gateway + " failing CPU/req ≤ 2× echo's at C=" + top + " (gateway process)",
                    f.ownCpuMicros / (double) f.requests, 2 * e.ownCpuMicros / (double) e.requests, "µs");
            met &= target(gateway + " failing CPU/req ≤ 2× echo's at C=" + top + " (process tree)",
                    f.treeCpuMicros / (double) f.requests, 2 * e.treeCpuMicros / (double) e.requests, "µs");
        }
        System.out.println();
        return met;
    }

    /** One line: met or missed, by how much; a target whose reference was not measured is not judged. */
    private static boolean target(String what, double value, double limit, String unit) {
        if (Double.isNaN(value) || Double.isNaN(limit)) {
            System.out.println("- " + what + ": not measured in this run");
            return true;
        }
        boolean met = value <= limit;
        System.out.printf(Locale.ROOT, "- %s: %.2f %s against %.2f %s: %s by %.2f %s (%.2f×)%n", what, value, unit, limit,
                unit, met ? "MET" : "MISSED", Math.abs(limit - value), unit, value / limit);
        return met;
    }

    private double p50(String call, int c, String name) {
        McpHttpLoad.Samples s = cells.get(new McpHttpLoad.Key(call, c, name));
        return s == null ? Double.NaN : percentile(s.nanos, 0.5);
    }

    private double sessionP50(String name) {
        List<Long> s = sessionNanos.get(name);
        return s == null ? Double.NaN : percentile(s, 0.5);
    }

    private String session(String name) {
        List<Long> s = sessionNanos.get(name);
        return s == null ? "" : fmt("%.1f (%.1f)", percentile(s, 0.5), percentile(s, 0.9));
    }

    private String cold(String name) {
        List<Double> c = coldMillis.get(name);
        return c == null ? "" : fmt("%.0f (%.0f–%.0f)", median(c), Collections.min(c), Collections.max(c));
    }

    private String cpu(McpHttpLoad.Samples s, boolean tree) {
        if (s.requests == 0 || s.treeCpuMicros == 0) {
            return "";
        }
        return fmt("%.0f", (tree ? s.treeCpuMicros : s.ownCpuMicros) / (double) s.requests);
    }

    private static double rps(McpHttpLoad.Samples s) {
        return s.requests / s.seconds;
    }

    static double median(List<Double> values) {
        if (values == null || values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** In ms. */
    static double percentile(List<Long> nanos, double q) {
        if (nanos.isEmpty()) {
            return Double.NaN;
        }
        long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(q * sorted.length))] / 1e6;
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
