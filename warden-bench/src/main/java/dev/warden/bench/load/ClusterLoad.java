package dev.warden.bench.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The load of {@code scripts/bench-cluster}: {@code concurrency} clients calling server-everything's
 * {@code echo} in a loop through one URL (HAProxy in front of the replicas) for a fixed time, either
 * session-based (2025-11-25: one session per client, opened before the clock starts) or stateless
 * (2026-07-28: every request stands alone, the version and capabilities in {@code _meta}). A warm-up
 * first, then the command of {@code -Dbench.snapshot} is run with {@code before}, the measured load,
 * and the command again with {@code after}: the script reads the processes' CPU, Redis' and
 * PostgreSQL's counters around exactly the measured calls. Prints one line of {@code key=value}:
 * calls, errors, seconds, p50 and p99 in ms, and the CPU this process spent in the measured window.
 *
 * <p>Usage: {@code ClusterLoad URL session|stateless CONCURRENCY SECONDS WARMUP_SECONDS}
 */
public final class ClusterLoad {

    private static final String SESSION_VERSION = "2025-11-25";
    private static final String STATELESS_VERSION = "2026-07-28";
    private static final String ARGUMENTS = "{\"message\":\"hello\"}";

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final URI url;
    private final boolean stateless;

    private ClusterLoad(URI url, boolean stateless) {
        this.url = url;
        this.stateless = stateless;
    }

    record Window(List<Long> nanos, long errors, double seconds, double cpuSeconds) {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5 || !List.of("session", "stateless").contains(args[1])) {
            System.err.println("usage: ClusterLoad URL session|stateless CONCURRENCY SECONDS WARMUP_SECONDS");
            System.exit(2);
        }
        ClusterLoad load = new ClusterLoad(URI.create(args[0]), args[1].equals("stateless"));
        int concurrency = Integer.parseInt(args[2]);
        List<String> sessions = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            sessions.add(load.stateless ? "" : load.open());
        }
        load.run(sessions, Double.parseDouble(args[4]));
        snapshot("before");
        Window w = load.run(sessions, Double.parseDouble(args[3]));
        snapshot("after");
        for (String session : sessions) {
            load.close(session);
        }
        long[] sorted = w.nanos().stream().mapToLong(Long::longValue).sorted().toArray();
        System.out.printf(Locale.ROOT, "calls=%d errors=%d seconds=%.3f p50_ms=%.2f p99_ms=%.2f driver_cpu_s=%.3f%n",
                sorted.length, w.errors(), w.seconds(), percentile(sorted, 0.50), percentile(sorted, 0.99),
                w.cpuSeconds());
    }

    /** Runs the script's snapshot command, if any, and waits for it: nothing is in flight meanwhile. */
    private static void snapshot(String phase) throws IOException, InterruptedException {
        String command = System.getProperty("bench.snapshot", "");
        if (command.isBlank()) {
            return;
        }
        Process p = new ProcessBuilder("bash", "-c", command + " " + phase).inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IOException("the snapshot command failed: " + command + " " + phase);
        }
    }

    private static double percentile(long[] sorted, double q) {
        return sorted.length == 0 ? Double.NaN : sorted[Math.min(sorted.length - 1, (int) Math.floor(q * sorted.length))] / 1e6;
    }

    private static double cpuSeconds() {
        return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos() / 1e9;
    }

    /** Each session (or stateless client) calling in a loop for {@code seconds}. */
    private Window run(List<String> sessions, double seconds) throws InterruptedException {
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        AtomicLong errors = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(sessions.size());
        double cpu0 = cpuSeconds();
        long start = System.nanoTime();
        for (String session : sessions) {
            Thread.ofVirtual().start(() -> {
                for (long id = 100; !stop.get(); id++) {
                    long t0 = System.nanoTime();
                    try {
                        call(session, id);
                        latencies.add(System.nanoTime() - t0);
                    } catch (IOException | InterruptedException e) {
                        if (errors.incrementAndGet() <= 3) {
                            System.err.println("error: " + e.getMessage());
                        }
                    }
                }
                done.countDown();
            });
        }
        Thread.sleep((long) (seconds * 1000)); // the load's length: this is a benchmark, not a test
        stop.set(true);
        done.await();
        double took = (System.nanoTime() - start) / 1e9;
        return new Window(new ArrayList<>(latencies), errors.get(), took, cpuSeconds() - cpu0);
    }

    private HttpRequest.Builder post(String body) {
        return HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private void call(String session, long id) throws IOException, InterruptedException {
        HttpRequest.Builder request;
        if (stateless) {
            request = post("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
                    + "\"arguments\":" + ARGUMENTS + ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\""
                    + STATELESS_VERSION + "\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}")
                    .header("MCP-Protocol-Version", STATELESS_VERSION).header("Mcp-Method", "tools/call")
                    .header("Mcp-Name", "echo");
        } else {
            request = post("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
                    + "\"arguments\":" + ARGUMENTS + "}}")
                    .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", SESSION_VERSION);
        }
        HttpResponse<InputStream> r = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        String answer = readAnswer(r, id);
        if (r.statusCode() != 200) {
            throw new IOException("HTTP " + r.statusCode() + ": " + answer);
        }
        if (!answer.contains("\"result\"") || answer.contains("\"isError\":true")) {
            throw new IOException("not a successful result: " + answer);
        }
    }

    private String open() throws IOException, InterruptedException {
        HttpResponse<InputStream> r = http.send(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"" + SESSION_VERSION + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench-cluster\","
                + "\"version\":\"1\"}}}").build(), HttpResponse.BodyHandlers.ofInputStream());
        String session = r.headers().firstValue("Mcp-Session-Id")
                .orElseThrow(() -> new IOException("no session id (HTTP " + r.statusCode() + ")"));
        readAnswer(r, 1);
        HttpResponse<String> n = http.send(post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
                .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", SESSION_VERSION).build(),
                HttpResponse.BodyHandlers.ofString());
        if (n.statusCode() != 202) {
            throw new IOException("initialized: HTTP " + n.statusCode());
        }
        return session;
    }

    private void close(String session) {
        if (session.isEmpty()) {
            return;
        }
        try {
            http.send(HttpRequest.newBuilder(url).header("Mcp-Session-Id", session)
                    .header("MCP-Protocol-Version", SESSION_VERSION).DELETE().build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException | InterruptedException e) {
            // best effort: the replicas expire idle sessions anyway
        }
    }

    /** The message answering {@code id}: a JSON body, or the event that carries it (the stream read to its end). */
    private static String readAnswer(HttpResponse<InputStream> r, long id) throws IOException {
        try (InputStream in = r.body()) {
            String type = r.headers().firstValue("Content-Type").orElse("");
            if (!type.startsWith("text/event-stream")) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String marker = "\"id\":" + id;
            String answer = null;
            for (String line; (line = reader.readLine()) != null; ) {
                if (answer == null && line.startsWith("data:") && line.contains(marker)
                        && (line.contains("\"result\"") || line.contains("\"error\""))) {
                    answer = line.substring(5); // read on: a body left unread spoils the connection's reuse
                }
            }
            if (answer == null) {
                throw new IOException("the stream ended before the answer");
            }
            return answer;
        }
    }
}
