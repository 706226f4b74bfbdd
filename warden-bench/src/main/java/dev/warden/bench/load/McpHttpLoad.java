package dev.warden.bench.load;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The end-to-end load of {@code scripts/bench-gateway}: MCP clients over Streamable HTTP (one
 * session per worker, as real clients have), each calling a tool in a loop, against several
 * endpoints in turn. Rounds rotate the order of the contenders so drift (thermal, other load) hits
 * all alike. First it times new sessions (initialize and notifications/initialized, one after the
 * other); then each cell (call × concurrency × contender) measures latency, throughput and, for a
 * contender whose pid it is given, the CPU time its process and its process tree spent on exactly
 * that cell's calls. Prints the tables and issue 36's targets ({@link LoadReport}).
 *
 * <p>Usage: {@code McpHttpLoad seconds rounds name=url...}; system properties:
 * {@code bench.authorization.NAME} (sent as the {@code Authorization} header of every request of
 * that contender: a bearer token), {@code bench.pid.NAME} (the contender's process: its CPU and
 * memory are read from /proc), {@code bench.concurrency} (default {@code 1,8,32}),
 * {@code bench.sessions} (new sessions timed per contender and round, default 20),
 * {@code bench.cold} (a file of cold starts, {@code name ms ms…} a line, from {@link HttpColdStart}),
 * {@code bench.served} (a file to write each contender's count of requests to), {@code bench.strict}
 * (exit 3 when a target is missed).
 */
public final class McpHttpLoad {

    static final Map<String, String> CALLS = new LinkedHashMap<>();

    static {
        CALLS.put("echo", "{\"name\":\"echo\",\"arguments\":{\"message\":\"hello\"}}");
        CALLS.put("failing", "{\"name\":\"get-sum\",\"arguments\":{\"a\":\"not a number\",\"b\":1}}");
    }

    record Key(String call, int concurrency, String contender) {
    }

    static final class Samples {
        final List<Long> nanos = new ArrayList<>();
        long requests;
        long errors;
        double seconds;
        long ownCpuMicros;
        long treeCpuMicros;
    }

    private final McpHttp client = new McpHttp();
    /** The process of each contender whose CPU is measured, by its URL. */
    private final Map<URI, Long> pids = new LinkedHashMap<>();

    public static void main(String[] args) throws Exception {
        double seconds = Double.parseDouble(args[0]);
        int rounds = Integer.parseInt(args[1]);
        Map<String, URI> contenders = new LinkedHashMap<>();
        Map<String, Long> pidByName = new LinkedHashMap<>();
        McpHttpLoad load = new McpHttpLoad();
        for (String a : Arrays.copyOfRange(args, 2, args.length)) {
            int eq = a.indexOf('=');
            String name = a.substring(0, eq);
            URI url = URI.create(a.substring(eq + 1));
            contenders.put(name, url);
            String credentials = System.getProperty("bench.authorization." + name);
            if (credentials != null) {
                load.client.authorize(url, credentials);
            }
            String pid = System.getProperty("bench.pid." + name);
            if (pid != null) {
                load.pids.put(url, Long.parseLong(pid));
                pidByName.put(name, Long.parseLong(pid));
            }
        }
        int[] concurrency = Arrays.stream(System.getProperty("bench.concurrency", "1,8,32").split(","))
                .mapToInt(Integer::parseInt).toArray();
        int sessions = Integer.getInteger("bench.sessions", 20);
        LoadReport report = new LoadReport(new ArrayList<>(contenders.keySet()), concurrency, pidByName,
                readCold(System.getProperty("bench.cold")));
        load.run(contenders, seconds, rounds, concurrency, sessions, report);
        boolean met = report.print();
        System.exit(!met && Boolean.getBoolean("bench.strict") ? 3 : 0);
    }

    private static Map<String, List<Double>> readCold(String file) throws IOException {
        Map<String, List<Double>> cold = new LinkedHashMap<>();
        if (file == null || !Files.exists(Path.of(file))) {
            return cold;
        }
        for (String line : Files.readAllLines(Path.of(file))) {
            String[] f = line.trim().split(" +");
            if (f.length > 1) {
                cold.put(f[0], Arrays.stream(f, 1, f.length).map(Double::valueOf).toList());
            }
        }
        return cold;
    }

    void run(Map<String, URI> contenders, double seconds, int rounds, int[] concurrency, int sessions,
            LoadReport report) throws Exception {
        List<String> names = new ArrayList<>(contenders.keySet());
        System.err.println("warm-up");
        // Every request each contender served, warm-up included: what its process's CPU time paid for.
        Map<String, Long> served = new LinkedHashMap<>();
        for (String name : names) {
            for (String call : CALLS.keySet()) {
                served.merge(name, measure(contenders.get(name), call, 8, Math.min(2, seconds)).requests, Long::sum);
            }
        }
        // New sessions, one at a time (a supergateway session starts a child process: not in the cells' clocks).
        for (int round = 0; round < rounds; round++) {
            List<String> order = new ArrayList<>(names);
            Collections.rotate(order, -round);
            for (String name : order) {
                System.err.printf(Locale.ROOT, "round %d: %d new sessions %s%n", round + 1, sessions, name);
                URI url = contenders.get(name);
                for (int i = 0; i < sessions; i++) {
                    long t0 = System.nanoTime();
                    String session = client.open(url);
                    report.session(name, System.nanoTime() - t0);
                    client.close(url, session);
                }
            }
        }
        for (int round = 0; round < rounds; round++) {
            List<String> order = new ArrayList<>(names);
            Collections.rotate(order, -round);
            for (String call : CALLS.keySet()) {
                for (int c : concurrency) {
                    for (String name : order) {
                        System.err.printf(Locale.ROOT, "round %d: %s c=%d %s%n", round + 1, call, c, name);
                        Samples s = measure(contenders.get(name), call, c, seconds);
                        served.merge(name, s.requests, Long::sum);
                        report.add(new Key(call, c, name), s);
                    }
                }
            }
        }
        String servedFile = System.getProperty("bench.served");
        if (servedFile != null) {
            StringBuilder lines = new StringBuilder();
            served.forEach((name, n) -> lines.append(name).append(' ').append(n).append('\n'));
            Files.writeString(Path.of(servedFile), lines);
        }
    }

    /**
     * {@code concurrency} sessions calling {@code call} in a loop for {@code seconds}; the CPU time
     * is read just before the first call and just after the last answer, so it holds these calls alone.
     */
    Samples measure(URI url, String call, int concurrency, double seconds) throws Exception {
        List<String> sessions = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            sessions.add(client.open(url));
        }
        Long pid = pids.get(url);
        long ownBefore = pid == null ? 0 : ProcStats.ownCpuMicros(pid);
        long treeBefore = pid == null ? 0 : ProcStats.treeCpuMicros(pid);
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        AtomicLong errors = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(concurrency);
        long start = System.nanoTime();
        for (String session : sessions) {
            Thread.ofVirtual().start(() -> {
                long id = 100;
                while (!stop.get()) {
                    long t0 = System.nanoTime();
                    try {
                        client.send(url, session, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\","
                                + "\"params\":" + CALLS.get(call) + "}", id);
                        latencies.add(System.nanoTime() - t0);
                    } catch (IOException | InterruptedException e) {
                        if (errors.incrementAndGet() <= 3) {
                            System.err.println("transport error: " + e);
                        }
                    }
                    id++;
                }
                done.countDown();
            });
        }
        Thread.sleep((long) (seconds * 1000));
        stop.set(true);
        done.await();
        double took = (System.nanoTime() - start) / 1e9;
        Samples s = new Samples();
        if (pid != null) {
            s.ownCpuMicros = ProcStats.ownCpuMicros(pid) - ownBefore;
            s.treeCpuMicros = ProcStats.treeCpuMicros(pid) - treeBefore;
        }
        for (String session : sessions) {
            client.close(url, session);
        }
        s.nanos.addAll(latencies);
        s.requests = latencies.size();
        s.errors = errors.get();
        s.seconds = took;
        return s;
    }
}
