package dev.warden.bench.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The stdio benchmark of {@code scripts/bench-wrap}: several commands that each speak MCP on stdio,
 * measured in one run by one client that writes and reads the JSON lines itself, so its own cost is
 * small and the same for all. Its method (warm-up, rotating rounds, cold starts, what it prints):
 * docs/benchmarks.md, "{@code warden wrap} benchmark".
 *
 * <p>Usage: {@code StdioBench warmup rounds calls starts [--target NAME:P50_MS:COLD_MS] :: NAME
 * COMMAND ARGS… :: NAME COMMAND ARGS…}; the first contender is the one the others are compared to.
 */
public final class StdioBench {

    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench-wrap\","
            + "\"version\":\"1\"}}}\n";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
    private static final String TOOLS_LIST = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n";
    /** A silent contender is killed after this long, so the run ends by itself. */
    private static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(20);
    /** The pause between warm-up and measurement. */
    private static final long QUIET_MILLIS = 3000;

    record Contender(String name, List<String> command) {
    }

    static final class Results {
        final List<Long> callNanos = new ArrayList<>();
        final List<Double> roundP50 = new ArrayList<>();
        final List<Double> coldMillis = new ArrayList<>();
        long cpuMicros;
        long rssKib;
    }

    record Target(String contender, double p50Ms, double coldMs) {
    }

    /** Clock ticks per second of /proc/PID/stat (USER_HZ, 100 on Linux). */
    private static final long TICKS = 100;

    private volatile long lastProgress = System.nanoTime();
    private volatile Process current;

    public static void main(String[] args) throws Exception {
        int warmup = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int calls = Integer.parseInt(args[2]);
        int starts = Integer.parseInt(args[3]);
        List<Target> targets = new ArrayList<>();
        int i = 4;
        for (; i < args.length && !args[i].equals("::"); i++) {
            if (args[i].equals("--target")) {
                String[] t = args[++i].split(":");
                targets.add(new Target(t[0], Double.parseDouble(t[1]), Double.parseDouble(t[2])));
            }
        }
        List<Contender> contenders = new ArrayList<>();
        while (i < args.length) {
            int end = i + 1;
            while (end < args.length && !args[end].equals("::")) {
                end++;
            }
            contenders.add(new Contender(args[i + 1], List.copyOf(Arrays.asList(args).subList(i + 2, end))));
            i = end;
        }
        System.exit(new StdioBench().run(contenders, warmup, rounds, calls, starts, targets) ? 0 : 1);
    }

    boolean run(List<Contender> contenders, int warmup, int rounds, int calls, int starts, List<Target> targets)
            throws Exception {
        Thread watchdog = Thread.ofPlatform().daemon().start(this::watch);
        Map<String, Results> results = new LinkedHashMap<>();
        contenders.forEach(c -> results.put(c.name(), new Results()));
        // Latency: every contender started once and warmed up, then measured in short windows, in turn.
        Map<String, Session> live = new LinkedHashMap<>();
        for (Contender c : contenders) {
            System.err.println("warming up " + c.name());
            Session s = start(c);
            live.put(c.name(), s);
            s.calls(warmup, null);
        }
        // The JIT compilers (the JVM's, V8's) finish what the warm-up queued while nothing is asked.
        Thread.sleep(QUIET_MILLIS);
        for (int round = 0; round < rounds; round++) {
            List<Contender> order = new ArrayList<>(contenders);
            Collections.rotate(order, -round);
            for (Contender c : order) {
                Results r = results.get(c.name());
                Session s = live.get(c.name());
                List<Long> mine = new ArrayList<>(calls);
                long cpu = s.cpuMicros();
                s.calls(calls, mine);
                r.cpuMicros += s.cpuMicros() - cpu;
                r.callNanos.addAll(mine);
                r.roundP50.add(percentile(mine, 0.50) / 1e6);
            }
        }
        for (Contender c : contenders) {
            Session s = live.get(c.name());
            results.get(c.name()).rssKib = s.rssKib();
            s.close();
        }
        // Cold start: each contender started anew, in turn, the order rotating.
        System.err.println("cold starts");
        for (int k = 0; k < starts; k++) {
            List<Contender> order = new ArrayList<>(contenders);
            Collections.rotate(order, -k);
            for (Contender c : order) {
                Session s = start(c);
                results.get(c.name()).coldMillis.add(s.coldMillis);
                s.close();
            }
        }
        watchdog.interrupt();
        return print(contenders, results, warmup, rounds, calls, targets);
    }

    private boolean print(List<Contender> contenders, Map<String, Results> results, int warmup, int rounds,
            int calls, List<Target> targets) {
        String base = contenders.get(0).name();
        double baseP50 = percentile(results.get(base).callNanos, 0.50) / 1e6;
        double baseCold = median(results.get(base).coldMillis);
        System.out.printf(Locale.ROOT, "Echo: %d unmeasured calls, then %d rounds of %d sequential tools/call; "
                + "cold start: median of %d starts.%n%n", warmup, rounds, calls,
                results.get(base).coldMillis.size());
        System.out.println("| contender | echo p50 ms | p50 vs " + base + " | rounds' p50 ms | echo p99 ms "
                + "| CPU µs per call | RSS MiB | cold start ms | cold vs " + base + " | starts' range ms |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Contender c : contenders) {
            Results r = results.get(c.name());
            double p50 = percentile(r.callNanos, 0.50) / 1e6;
            double cold = median(r.coldMillis);
            System.out.printf(Locale.ROOT, "| %s | %.3f | %+.3f | %.3f–%.3f | %.3f | %.0f | %.0f | %.0f | %+.0f "
                    + "| %.0f–%.0f |%n", c.name(), p50, p50 - baseP50, Collections.min(r.roundP50),
                    Collections.max(r.roundP50), percentile(r.callNanos, 0.99) / 1e6,
                    r.cpuMicros / (double) r.callNanos.size(), r.rssKib / 1024.0, cold, cold - baseCold,
                    Collections.min(r.coldMillis), Collections.max(r.coldMillis));
        }
        boolean pass = true;
        if (!targets.isEmpty()) {
            System.out.println();
        }
        for (Target t : targets) {
            Results r = results.get(t.contender());
            double dp50 = percentile(r.callNanos, 0.50) / 1e6 - baseP50;
            double dcold = median(r.coldMillis) - baseCold;
            boolean p50Ok = dp50 <= t.p50Ms();
            boolean coldOk = dcold <= t.coldMs();
            pass &= p50Ok && coldOk;
            System.out.printf(Locale.ROOT, "- %s: echo p50 %s + %.3f ms (target ≤ + %.1f ms): %s%n", t.contender(),
                    contenders.get(0).name(), dp50, t.p50Ms(), p50Ok ? "PASS" : "FAIL");
            System.out.printf(Locale.ROOT, "- %s: cold start %s + %.0f ms (target ≤ + %.0f ms): %s%n", t.contender(),
                    contenders.get(0).name(), dcold, t.coldMs(), coldOk ? "PASS" : "FAIL");
        }
        return pass;
    }

    static double percentile(List<Long> nanos, double q) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.floor(q * sorted.size())));
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** Kills the contender that has said nothing for {@link #STALL_NANOS}: its read then ends and the run fails. */
    private void watch() {
        try {
            while (true) {
                Thread.sleep(1000);
                Process p = current;
                if (p != null && System.nanoTime() - lastProgress > STALL_NANOS) {
                    System.err.println("a contender stalled: killed");
                    kill(p);
                    current = null;
                }
            }
        } catch (InterruptedException e) {
            // the run is over
        }
    }

    private static void kill(Process p) {
        List<ProcessHandle> tree = p.descendants().toList();
        p.destroyForcibly();
        tree.forEach(ProcessHandle::destroyForcibly);
    }

    Session start(Contender c) throws IOException {
        lastProgress = System.nanoTime();
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(c.command()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Session s = new Session(c, p);
        s.send(INITIALIZE);
        s.await(1);
        s.send(INITIALIZED + TOOLS_LIST);
        String tools = s.await(2);
        s.coldMillis = (System.nanoTime() - t0) / 1e6;
        if (!tools.contains("\"echo\"")) {
            throw new IllegalStateException(c.name() + " lists no echo tool: " + tools);
        }
        return s;
    }

    final class Session implements AutoCloseable {
        final Contender contender;
        final Process process;
        final OutputStream in;
        final BufferedReader out;
        double coldMillis;
        long nextId = 1000;

        Session(Contender contender, Process process) {
            this.contender = contender;
            this.process = process;
            this.in = process.getOutputStream();
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8),
                    1 << 16);
        }

        void send(String lines) throws IOException {
            in.write(lines.getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        /** Reads until the answer to {@code id}; other lines (notifications) are skipped. */
        String await(long id) throws IOException {
            current = process;
            String key = "\"id\":" + id;
            String line;
            while ((line = out.readLine()) != null) {
                lastProgress = System.nanoTime();
                int at = line.indexOf(key);
                if (at >= 0) {
                    int after = at + key.length();
                    if (after < line.length() && !Character.isDigit(line.charAt(after))
                            && !line.contains("\"method\":")) {
                        return line;
                    }
                }
            }
            throw new IllegalStateException(contender.name() + " closed its output before answering request " + id);
        }

        void calls(int n, List<Long> record) throws IOException {
            for (int i = 0; i < n; i++) {
                long id = nextId++;
                byte[] request = ("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{"
                        + "\"name\":\"echo\",\"arguments\":{\"message\":\"hello " + id + "\"}}}\n")
                        .getBytes(StandardCharsets.UTF_8);
                long t0 = System.nanoTime();
                in.write(request);
                in.flush();
                String answer = await(id);
                long took = System.nanoTime() - t0;
                if (!answer.contains("Echo: hello " + id)) {
                    throw new IllegalStateException(contender.name() + " answered the echo call with " + answer);
                }
                if (record != null) {
                    record.add(took);
                }
            }
        }

        /** CPU time the process itself (all its threads, not its children) has used so far: /proc/PID/stat. */
        long cpuMicros() {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                // fields 14 and 15 (utime, stime) in clock ticks, counted from the state (field 3)
                return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 1_000_000L / TICKS;
            } catch (IOException | RuntimeException e) {
                return 0;
            }
        }

        long rssKib() {
            try {
                for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                    if (line.startsWith("VmRSS:")) {
                        return Long.parseLong(line.replaceAll("[^0-9]", ""));
                    }
                }
            } catch (IOException | NumberFormatException e) {
                // not Linux, or gone
            }
            return 0;
        }

        /** Ends the input as a client leaving does, then gives it two seconds before killing what is left. */
        @Override
        public void close() throws IOException {
            List<ProcessHandle> tree = process.descendants().toList();
            try {
                in.close();
            } catch (IOException e) {
                // it is gone already
            }
            try {
                process.waitFor(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            kill(process);
            for (ProcessHandle h : tree) {
                h.destroyForcibly();
                try {
                    h.onExit().get(5, TimeUnit.SECONDS);
                } catch (Exception e) {
                    // best effort
                }
            }
            current = null;
        }
    }
}
