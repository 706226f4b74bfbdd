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
import java.util.Arrays;
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
 * all alike. Prints a table of p50/p99 latency and throughput, with ratios to the one named
 * {@code direct}.
 *
 * <p>Usage: {@code McpHttpLoad seconds rounds name=url...}; a contender that needs credentials
 * gets {@code -Dbench.authorization.NAME=VALUE}, sent as the {@code Authorization} header of
 * every request (a bearer token: what authentication costs per request).
 */
public final class McpHttpLoad {

    private static final int[] CONCURRENCY = {1, 8, 32};
    private static final Map<String, String> CALLS = new LinkedHashMap<>();

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
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    /** The Authorization header of each contender that needs one, by its URL. */
    private final Map<URI, String> authorization = new java.util.concurrent.ConcurrentHashMap<>();

    public static void main(String[] args) throws Exception {
        double seconds = Double.parseDouble(args[0]);
        int rounds = Integer.parseInt(args[1]);
        Map<String, URI> contenders = new LinkedHashMap<>();
        McpHttpLoad load = new McpHttpLoad();
        for (String a : Arrays.copyOfRange(args, 2, args.length)) {
            int eq = a.indexOf('=');
            URI url = URI.create(a.substring(eq + 1));
            contenders.put(a.substring(0, eq), url);
            String credentials = System.getProperty("bench.authorization." + a.substring(0, eq));
            if (credentials != null) {
                load.authorization.put(url, credentials);
            }
        }
        load.run(contenders, seconds, rounds);
    }

    void run(Map<String, URI> contenders, double seconds, int rounds) throws Exception {
        List<String> names = new ArrayList<>(contenders.keySet());
        System.err.println("warm-up");
        // Every request each contender served, warm-up included: what its process's CPU time paid for.
        Map<String, Long> served = new LinkedHashMap<>();
        for (String name : names) {
            for (String call : CALLS.keySet()) {
                served.merge(name, measure(contenders.get(name), call, 8, Math.min(2, seconds)).requests, Long::sum);
            }
        }
        Map<Key, Samples> results = new LinkedHashMap<>();
        for (int round = 0; round < rounds; round++) {
            List<String> order = new ArrayList<>(names);
            java.util.Collections.rotate(order, -round);
            for (String call : CALLS.keySet()) {
                for (int c : CONCURRENCY) {
                    for (String name : order) {
                        System.err.printf(Locale.ROOT, "round %d: %s c=%d %s%n", round + 1, call, c, name);
                        Samples s = measure(contenders.get(name), call, c, seconds);
                        served.merge(name, s.requests, Long::sum);
                        Samples all = results.computeIfAbsent(new Key(call, c, name), k -> new Samples());
                        all.nanos.addAll(s.nanos);
                        all.requests += s.requests;
                        all.errors += s.errors;
                        all.seconds += s.seconds;
                    }
                }
            }
        }
        print(results, names);
        String servedFile = System.getProperty("bench.served");
        if (servedFile != null) {
            StringBuilder lines = new StringBuilder();
            served.forEach((name, n) -> lines.append(name).append(' ').append(n).append('\n'));
            java.nio.file.Files.writeString(java.nio.file.Path.of(servedFile), lines);
        }
    }

    private void print(Map<Key, Samples> results, List<String> names) {
        System.out.println("| call | clients | contender | p50 ms | p99 ms | req/s | p50 vs direct | req/s vs direct |");
        System.out.println("|---|---:|---|---:|---:|---:|---:|---:|");
        for (String call : CALLS.keySet()) {
            for (int c : CONCURRENCY) {
                Samples direct = results.get(new Key(call, c, "direct"));
                for (String name : names) {
                    Samples s = results.get(new Key(call, c, name));
                    double p50 = percentile(s, 0.50);
                    double p99 = percentile(s, 0.99);
                    double rps = s.requests / s.seconds;
                    String vsP50 = direct == null ? "" : String.format(Locale.ROOT, "%.2f×", p50 / percentile(direct, 0.5));
                    String vsRps = direct == null ? "" : String.format(Locale.ROOT, "%.2f×",
                            rps / (direct.requests / direct.seconds));
                    System.out.printf(Locale.ROOT, "| %s | %d | %s | %.2f | %.2f | %.0f | %s | %s |%s%n", call, c, name,
                            p50, p99, rps, vsP50, vsRps, s.errors > 0 ? " (" + s.errors + " transport errors)" : "");
                }
            }
        }
    }

    private static double percentile(Samples s, double q) {
        if (s.nanos.isEmpty()) {
            return Double.NaN;
        }
        long[] sorted = s.nanos.stream().mapToLong(Long::longValue).sorted().toArray();
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(q * sorted.length))] / 1e6;
    }

    /** {@code concurrency} sessions calling {@code call} in a loop for {@code seconds}. */
    Samples measure(URI url, String call, int concurrency, double seconds) throws Exception {
        List<String> sessions = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            sessions.add(open(url));
        }
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
                        send(url, session, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":"
                                + CALLS.get(call) + "}", id);
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
        for (String session : sessions) {
            close(url, session);
        }
        Samples s = new Samples();
        s.nanos.addAll(latencies);
        s.requests = latencies.size();
        s.errors = errors.get();
        s.seconds = took;
        return s;
    }

    private String open(URI url) throws IOException, InterruptedException {
        HttpResponse<InputStream> r = http.send(post(url, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"load\","
                + "\"version\":\"1\"}}}"), HttpResponse.BodyHandlers.ofInputStream());
        String session = r.headers().firstValue("Mcp-Session-Id").orElse(null);
        readAnswer(r, 1);
        HttpResponse<InputStream> n = http.send(post(url, session, "{\"jsonrpc\":\"2.0\",\"method\":"
                + "\"notifications/initialized\"}"), HttpResponse.BodyHandlers.ofInputStream());
        n.body().readAllBytes();
        n.body().close();
        return session;
    }

    private void close(URI url, String session) {
        if (session == null) {
            return;
        }
        try {
            HttpRequest.Builder delete = HttpRequest.newBuilder(url).header("Mcp-Session-Id", session).DELETE();
            if (authorization.containsKey(url)) {
                delete.header("Authorization", authorization.get(url));
            }
            http.send(delete.build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException | InterruptedException e) {
            // best effort
        }
    }

    private HttpRequest post(URI url, String session, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(url).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18");
        }
        if (authorization.containsKey(url)) {
            b.header("Authorization", authorization.get(url));
        }
        return b.build();
    }

    private void send(URI url, String session, String body, long id) throws IOException, InterruptedException {
        HttpResponse<InputStream> r = http.send(post(url, session, body), HttpResponse.BodyHandlers.ofInputStream());
        if (r.statusCode() != 200) {
            r.body().readAllBytes();
            r.body().close();
            throw new IOException("HTTP " + r.statusCode());
        }
        readAnswer(r, id);
    }

    /** Reads until the answer to {@code id}: a JSON body, or the SSE event that carries it. */
    private static void readAnswer(HttpResponse<InputStream> r, long id) throws IOException {
        try (InputStream in = r.body()) {
            String type = r.headers().firstValue("Content-Type").orElse("");
            if (!type.startsWith("text/event-stream")) {
                in.readAllBytes();
                return;
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String marker = "\"id\":" + id;
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith("data:") && line.contains(marker)
                        && (line.contains("\"result\"") || line.contains("\"error\""))) {
                    // Read the stream to its end (the server closes it after the answer): a body
                    // left unread makes the client drop or mis-reuse the connection.
                    while (reader.readLine() != null) {
                        // drain
                    }
                    return;
                }
            }
            throw new IOException("the stream ended before the answer");
        }
    }
}
