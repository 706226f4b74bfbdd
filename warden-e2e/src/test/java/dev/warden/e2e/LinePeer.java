package dev.warden.e2e;

import dev.warden.core.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/**
 * A client that speaks newline-delimited JSON-RPC to a process by hand and keeps every line it
 * receives as raw text, so tests assert on the exact bytes a client gets.
 */
final class LinePeer implements AutoCloseable {

    private final Process process;
    private final OutputStream in;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    final List<String> notifications = new CopyOnWriteArrayList<>();
    final Path stderr;

    LinePeer(List<String> command) throws IOException {
        this(command, java.util.Map.of());
    }

    /** @param environment added to the process's environment */
    LinePeer(List<String> command, java.util.Map<String, String> environment) throws IOException {
        stderr = Files.createTempFile("warden-peer", ".err");
        ProcessBuilder builder = new ProcessBuilder(command).directory(Processes.NODE_DIR.toFile())
                .redirectError(stderr.toFile());
        builder.environment().putAll(environment);
        process = builder.start();
        in = process.getOutputStream();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // the process ended
            }
        });
    }

    void send(String json) throws IOException {
        in.write((json + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** The raw line answering {@code id}; notifications seen meanwhile are kept. A hang guard, not a speed check. */
    String answer(int id, Duration guard) throws InterruptedException {
        long deadline = System.nanoTime() + guard.toNanos();
        while (true) {
            String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new AssertionError("no answer to request " + id + " within " + guard);
            }
            JsonNode node = Json.mapper().readTree(line);
            if (node.has("id") && node.get("id").isNumber() && node.get("id").asInt() == id) {
                return line;
            }
            notifications.add(line);
        }
    }

    String call(int id, String method, String params, Duration guard) throws IOException, InterruptedException {
        send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}");
        return answer(id, guard);
    }

    /** The next line the process writes (a server's "serving at" line, say). */
    String nextLine(Duration guard) throws InterruptedException {
        String line = lines.poll(guard.toNanos(), TimeUnit.NANOSECONDS);
        if (line == null) {
            throw new AssertionError("no output within " + guard);
        }
        return line;
    }

    /**
     * Stops the process (a server that reads no stdin): SIGTERM, and SIGKILL 10 s later, as a
     * container runtime does. True when it took the SIGKILL.
     */
    boolean destroy() throws InterruptedException {
        List<ProcessHandle> started = descendants();
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            started = union(started, descendants());
            process.destroyForcibly();
            stopOrphans(started);
            return true;
        }
        return false;
    }

    /**
     * After a SIGKILL, kills what the process had started: killed on a loaded machine before it
     * stopped its stdio upstreams, it orphans them, and one that does not exit when its stdin closes
     * (server-everything once its simulated logging or updates are on) would run on after the tests.
     * A process that stopped by itself is left to have stopped its own (tests check that it does).
     */
    private void stopOrphans(List<ProcessHandle> started) throws InterruptedException {
        process.waitFor(10, TimeUnit.SECONDS);
        for (ProcessHandle orphan : started) {
            if (orphan.isAlive()) {
                orphan.destroyForcibly();
            }
        }
    }

    private static List<ProcessHandle> union(List<ProcessHandle> a, List<ProcessHandle> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).distinct().toList();
    }

    long pid() {
        return process.pid();
    }

    /** The process's exit code, once it has ended; a hang guard, not a speed check. */
    int awaitExit(Duration guard) throws InterruptedException {
        if (!process.waitFor(guard.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the process still runs after " + guard);
        }
        return process.exitValue();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** The processes this one started, and theirs (a gateway's stdio upstreams, say) that are running. */
    java.util.List<ProcessHandle> descendants() {
        return process.descendants().filter(ProcessHandle::isAlive).toList();
    }

    @Override
    public void close() throws IOException {
        List<ProcessHandle> started = descendants();
        in.close();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                started = union(started, descendants());
                process.destroyForcibly();
                stopOrphans(started);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            started.forEach(ProcessHandle::destroyForcibly);
            Thread.currentThread().interrupt();
        }
    }
}
