package dev.warden.bench.load;

import java.io.IOException;
import java.net.ServerSocket;
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
import java.util.concurrent.TimeUnit;

/**
 * Cold start of HTTP MCP servers and gateways, for {@code scripts/bench-gateway}: each contender is
 * started {@code starts} times, the order rotating, each timed from process start to the first
 * {@code initialize} answered with HTTP 200 on its port (polled every 5 ms until it is), then
 * stopped (SIGTERM to the process, then its whole tree killed) before the next. {@code {port}} in
 * the URL and the command is a free port, new for each start; leading {@code NAME=value} words are
 * the process's environment. Prints the medians and ranges, and writes {@code name ms ms…} lines to
 * the file given as {@code bench.cold} for {@link McpHttpLoad}'s summary.
 *
 * <p>Usage: {@code HttpColdStart starts :: NAME URL [ENV=V…] COMMAND ARGS… :: NAME URL …}
 */
public final class HttpColdStart {

    private static final long GIVE_UP_NANOS = TimeUnit.SECONDS.toNanos(60);

    record Contender(String name, String url, Map<String, String> env, List<String> command) {
    }

    private final McpHttp client = new McpHttp();

    public static void main(String[] args) throws Exception {
        int starts = Integer.parseInt(args[0]);
        List<Contender> contenders = new ArrayList<>();
        int i = 1;
        while (i < args.length) {
            int end = i + 1;
            while (end < args.length && !args[end].equals("::")) {
                end++;
            }
            List<String> words = new ArrayList<>(Arrays.asList(args).subList(i + 3, end));
            Map<String, String> env = new LinkedHashMap<>();
            while (!words.isEmpty() && words.get(0).matches("[A-Z_][A-Z0-9_]*=.*")) {
                String w = words.remove(0);
                env.put(w.substring(0, w.indexOf('=')), w.substring(w.indexOf('=') + 1));
            }
            contenders.add(new Contender(args[i + 1], args[i + 2], env, List.copyOf(words)));
            i = end;
        }
        new HttpColdStart().run(contenders, starts);
    }

    void run(List<Contender> contenders, int starts) throws Exception {
        // The client's own classes loaded before the first clock starts.
        try {
            client.initialize(URI.create("http://127.0.0.1:" + freePort() + "/mcp"));
        } catch (IOException e) {
            // nothing listens there: as intended
        }
        Map<String, List<Double>> millis = new LinkedHashMap<>();
        contenders.forEach(c -> millis.put(c.name(), new ArrayList<>()));
        for (int k = 0; k < starts; k++) {
            List<Contender> order = new ArrayList<>(contenders);
            Collections.rotate(order, -k);
            for (Contender c : order) {
                System.err.printf(Locale.ROOT, "cold start %d: %s%n", k + 1, c.name());
                millis.get(c.name()).add(once(c));
            }
        }
        StringBuilder lines = new StringBuilder();
        System.out.println("| contender | cold start ms (median) | range ms |");
        System.out.println("|---|---:|---:|");
        for (Contender c : contenders) {
            List<Double> m = millis.get(c.name());
            System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f–%.0f |%n", c.name(), LoadReport.median(m),
                    Collections.min(m), Collections.max(m));
            lines.append(c.name());
            m.forEach(v -> lines.append(' ').append(String.format(Locale.ROOT, "%.1f", v)));
            lines.append('\n');
        }
        String out = System.getProperty("bench.cold");
        if (out != null) {
            Files.writeString(Path.of(out), lines);
        }
    }

    double once(Contender c) throws Exception {
        String port = Integer.toString(freePort());
        URI url = URI.create(c.url().replace("{port}", port));
        ProcessBuilder pb = new ProcessBuilder(c.command().stream().map(w -> w.replace("{port}", port)).toList())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        c.env().forEach((k, v) -> pb.environment().put(k, v.replace("{port}", port)));
        long t0 = System.nanoTime();
        Process p = pb.start();
        try {
            while (true) {
                try {
                    client.initialize(url);
                    return (System.nanoTime() - t0) / 1e6;
                } catch (IOException e) {
                    if (!p.isAlive() || System.nanoTime() - t0 > GIVE_UP_NANOS) {
                        throw new IllegalStateException(c.name() + " did not answer initialize on " + url + ": " + e);
                    }
                    Thread.sleep(5);
                }
            }
        } finally {
            stop(p);
        }
    }

    /** SIGTERM, ten seconds to end, then whatever is left of its tree killed (and waited for). */
    private static void stop(Process p) throws InterruptedException {
        List<ProcessHandle> tree = p.descendants().toList();
        p.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
        }
        for (ProcessHandle h : tree) {
            h.destroyForcibly();
            try {
                h.onExit().get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                // best effort
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
