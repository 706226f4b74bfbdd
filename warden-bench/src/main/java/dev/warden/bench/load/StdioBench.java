package dev.warden.bench.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
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
 * <p>Usage: {@code StdioBench warmup rounds calls starts [--first N] [--fresh-only] [--strict]
 * [--target NAME:P50_MS:COLD_MS] [--fresh-target NAME:P50_MS:TOOLS_LIST_MS] :: NAME COMMAND ARGS… ::
 * NAME COMMAND ARGS…}; the first contender is the one the others are compared to. After each cold
 * start the first {@code N} (default 100) echo calls of that fresh process are timed; a
 * {@code --fresh-target} judges those and the first tools/list, a {@code --target} the warmed calls
 * and the cold start. {@code --strict}: exit 1 when a target is missed (else only printed).
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
        /** The first calls of each fresh process, all starts together, and each start's p50 and tree CPU. */
        final List<Long> firstNanos = new ArrayList<>();
        final List<Double> firstP50 = new ArrayList<>();
        final List<Double> freshCpuMillis = new ArrayList<>();
        long cpuMicros;
        long rssKib;
    }

    /** Limits over the base contender: warmed p50 and cold start, or (fresh) the first calls' p50 and first tools/list. */
    record Target(String contender, double p50Ms, double coldMs, boolean fresh) {
    }

    /** Options: the calls timed after each cold start, whether to skip the warmed phase. */
    record Options(int first, boolean freshOnly) {
    }

    private volatile long lastProgress = System.nanoTime();
    private volatile Process current;

    public static void main(String[] args) throws Exception {
        int warmup = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int calls = Integer.parseInt(args[2]);
        int starts = Integer.parseInt(args[3]);
        List<Target> targets = new ArrayList<>();
        int first = 100;
        boolean freshOnly = false;
        boolean strict = false;
        int i = 4;
        for (; i < args.length && !args[i].equals("::"); i++) {
            switch (args[i]) {
                case "--target", "--fresh-target" -> {
                    boolean fresh = args[i].equals("--fresh-target");
                    String[] t = args[++i].split(":");
                    targets.add(new Target(t[0], Double.parseDouble(t[1]), Double.parseDouble(t[2]), fresh));
                }
                case "--first" -> first = Integer.parseInt(args[++i]);
                case "--fresh-only" -> freshOnly = true;
                case "--strict" -> strict = true;
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
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
        boolean met = new StdioBench().run(contenders, warmup, rounds, calls, starts, targets,
                new Options(first, freshOnly));
        System.exit(met || !strict ? 0 : 1);
    }

    boolean run(List<Contender> contenders, int warmup, int rounds, int calls, int starts, List<Target> targets,
            Options options) throws Exception {
        Thread watchdog = Thread.ofPlatform().daemon().start(this::watch);
        Map<String, Results> results = new LinkedHashMap<>();
        contenders.forEach(c -> results.put(c.name(), new Results()));
        if (!options.freshOnly()) {
            warmed(contenders, warmup, rounds, calls, results);
        }
        // Cold start: each contender started anew, in turn, the order rotating; then its first calls.
        System.err.println("cold starts");
        for (int k = 0; k < starts; k++) {
            List<Contender> order = new ArrayList<>(contenders);
            Collections.rotate(order, -k);
            for (Contender c : order) {
                Results r = results.get(c.name());
                Session s = start(c);
                r.coldMillis.add(s.coldMillis);
                List<Long> mine = new ArrayList<>(options.first());
                s.calls(options.first(), mine);
                r.freshCpuMillis.add(ProcStats.treeCpuMicros(s.process.pid()) / 1000.0);
                r.firstNanos.addAll(mine);
                r.firstP50.add(percentile(mine, 0.50) / 1e6);
                s.close();
            }
        }
        watchdog.interrupt();
        return new StdioReport(contenders, results, targets).print(warmup, rounds, calls, options);
    }

    /** Latency after warm-up: every contender started once and warmed, then measured in short windows, in turn. */
    private void warmed(List<Contender> contenders, int warmup, int rounds, int calls, Map<String, Results> results)
            throws Exception {
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
                long cpu = ProcStats.ownCpuMicros(s.process.pid());
                s.calls(calls, mine);
                r.cpuMicros += ProcStats.ownCpuMicros(s.process.pid()) - cpu;
                r.callNanos.addAll(mine);
                r.roundP50.add(percentile(mine, 0.50) / 1e6);
            }
        }
        for (Contender c : contenders) {
            Session s = live.get(c.name());
            results.get(c.name()).rssKib = ProcStats.rssKib(s.process.pid());
            s.close();
        }
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
