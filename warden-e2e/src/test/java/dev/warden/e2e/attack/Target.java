package dev.warden.e2e.attack;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code warden gateway} or {@code warden wrap} under attack, started from the packaged
 * launcher (which execs the JVM, so the process's pid is the JVM's and its VmRSS is the gateway's
 * own, without its upstreams).
 */
final class Target implements AutoCloseable {

    static final Path LAUNCHER = Path.of(System.getProperty("warden.launcher", "../warden")).toAbsolutePath()
            .normalize();
    static final Path NODE_DIR = Path.of(System.getProperty("warden.node.dir", "src/test/node")).toAbsolutePath();
    static final String NODE = System.getProperty("warden.node", "node");
    static final String EVERYTHING = NODE_DIR
            .resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js").toString();
    static final String HOSTILE = NODE_DIR.resolve("hostile-server.mjs").toString();

    final Process process;
    /** The gateway's MCP endpoint; empty for wrap, whose client speaks on the process's stdio. */
    final Optional<String> url;
    final Path dataDir;
    /** wrap's one client, initialized; empty for the gateway. */
    final Optional<WrapPeer> peer;
    /** The gateway's {@code /metrics} port, when the attack's configuration opened one. */
    Optional<Integer> metricsPort = Optional.empty();
    /** Whether the process ends by itself when done ({@code warden audit}): its end is not a crash. */
    boolean endsByItself;

    private Target(Process process, Optional<String> url, Path dataDir, Optional<WrapPeer> peer) {
        this.process = process;
        this.url = url;
        this.dataDir = dataDir;
        this.peer = peer;
    }

    /**
     * The standard configuration: server-everything over stdio (the honest client's upstream) and
     * the hostile server, with a short timeout so a call it never answers costs seconds;
     * {@code hostileSettings} are more keys of the hostile upstream, {@code topSettings} more
     * top-level keys ({@code -Dwarden.attack.gatewaySettings} adds its own, for bounds the
     * gateway gains, a session idle expiry say).
     */
    static String standardConfig(List<String> everythingSettings, List<String> hostileSettings) {
        return standardConfig("", everythingSettings, hostileSettings);
    }

    /** The standard configuration with more keys of its {@code http} section ({@code "sessions: {…}"}). */
    static String standardConfig(String httpSettings, List<String> everythingSettings, List<String> hostileSettings) {
        StringBuilder yaml = new StringBuilder("http: { port: 0" + (httpSettings.isBlank() ? "" : ", " + httpSettings)
                + " }\n");
        for (String line : System.getProperty("warden.attack.gatewaySettings", "").split(";")) {
            if (!line.isBlank()) {
                yaml.append(line.strip()).append('\n');
            }
        }
        yaml.append("upstreams:\n  everything:\n    command: [%s, %s, stdio]\n".formatted(NODE, EVERYTHING));
        everythingSettings.forEach(s -> yaml.append("    ").append(s).append('\n'));
        yaml.append("  hostile:\n    command: [%s, %s]\n    timeout: 5s\n".formatted(NODE, HOSTILE));
        hostileSettings.forEach(s -> yaml.append("    ").append(s).append('\n'));
        return yaml.toString();
    }

    /** Starts {@code warden gateway} on {@code yaml} with {@code environment} added to ours; waits until it serves. */
    static Target gateway(String yaml, Map<String, String> environment) throws IOException, InterruptedException {
        Path dataDir = Files.createTempDirectory("warden-attack");
        Path config = dataDir.resolve("warden.yaml");
        Files.writeString(config, yaml);
        ProcessBuilder builder = new ProcessBuilder(LAUNCHER.toString(), "gateway", "--config", config.toString(),
                "--data-dir", dataDir.resolve("data").toString()).directory(NODE_DIR.toFile())
                .redirectError(dataDir.resolve("gateway.err").toFile())
                .redirectInput(ProcessBuilder.Redirect.PIPE);
        builder.environment().putAll(environment);
        Process process = builder.start();
        CompletableFuture<String> serving = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.contains("serving") && line.contains("http://")) {
                        serving.complete(line.substring(line.indexOf("http://")).strip());
                    }
                }
            } catch (IOException e) {
                // the gateway ended
            }
            serving.completeExceptionally(new IllegalStateException("the gateway ended before serving"));
        });
        try {
            return new Target(process, Optional.of(serving.get(90, TimeUnit.SECONDS)), dataDir, Optional.empty());
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IllegalStateException("warden gateway did not start: "
                    + Files.readString(dataDir.resolve("gateway.err")), e);
        }
    }

    /** Starts {@code warden wrap} with {@code options} in front of the hostile server; its stdio is the client's. */
    static Target wrap(List<String> options) throws IOException, InterruptedException {
        Path dataDir = Files.createTempDirectory("warden-attack-wrap");
        List<String> command = new ArrayList<>(List.of(LAUNCHER.toString(), "wrap", "--data-dir",
                dataDir.resolve("data").toString()));
        command.addAll(options);
        command.addAll(List.of("--", NODE, HOSTILE));
        Process process = new ProcessBuilder(command).directory(NODE_DIR.toFile())
                .redirectError(dataDir.resolve("wrap.err").toFile()).start();
        WrapPeer peer = new WrapPeer(process);
        peer.initialize();
        return new Target(process, Optional.empty(), dataDir, Optional.of(peer));
    }

    /**
     * Starts {@code warden audit} with {@code options} against {@code listing-server.mjs} run with
     * {@code serverArgs}; its report goes to {@code audit.out}, its stderr to {@code audit.err} in
     * the data directory. It ends by itself, its exit code the audit's verdict.
     */
    static Target audit(List<String> options, List<String> serverArgs) throws IOException {
        Path dataDir = Files.createTempDirectory("warden-attack-audit");
        List<String> command = new ArrayList<>(List.of(LAUNCHER.toString(), "audit"));
        command.addAll(options);
        command.addAll(List.of("--", NODE, NODE_DIR.resolve("listing-server.mjs").toString()));
        command.addAll(serverArgs);
        Process process = new ProcessBuilder(command).directory(NODE_DIR.toFile())
                .redirectOutput(dataDir.resolve("audit.out").toFile())
                .redirectError(dataDir.resolve("audit.err").toFile()).start();
        Target target = new Target(process, Optional.empty(), dataDir, Optional.empty());
        target.endsByItself = true;
        return target;
    }

    /**
     * The last {@code lines} lines of what the target wrote to stderr (the gateway's JSON log), for
     * an attack that failed: its data directory goes with the target, and a failure seen once in CI
     * is otherwise not diagnosable.
     */
    List<String> stderrTail(int lines) {
        try (java.util.stream.Stream<Path> files = Files.list(dataDir)) {
            List<String> all = new ArrayList<>();
            for (Path err : files.filter(f -> f.getFileName().toString().endsWith(".err")).sorted().toList()) {
                all.addAll(Files.readAllLines(err, StandardCharsets.UTF_8));
            }
            return all.subList(Math.max(0, all.size() - lines), all.size());
        } catch (IOException | java.io.UncheckedIOException e) {
            return List.of("(its stderr could not be read: " + e + ")");
        }
    }

    boolean alive() {
        return process.isAlive();
    }

    /** The JVM's resident memory, from /proc/PID/status (0 once it has ended). */
    long rssMiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // ended
        }
        return 0;
    }

    /**
     * The CPU time the target's JVM has used so far (user and system, from /proc/PID/stat, in the
     * kernel's clock ticks of 1/100 s; its upstreams not counted), in milliseconds; 0 once it ended.
     */
    long cpuMillis() {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10; // utime, stime (fields 14, 15)
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * Waits until the gateway's own gauge {@code warden_http_sessions} (its {@code /metrics} on
     * {@code metricsPort}) reads at most {@code sessions}, polling once a second: the idle expiry
     * is the gateway's to run, the suite only watches it happen ({@code eachPoll} runs before each
     * look: the honest client keeps its own session in use). False when {@code bound} passed.
     */
    boolean awaitOpenSessionsAtMost(int metricsPort, long sessions, Duration bound, Runnable eachPoll)
            throws InterruptedException {
        java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
        java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).timeout(Duration.ofSeconds(10)).build();
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < deadline && alive()) {
            eachPoll.run();
            try {
                String body = client.send(request, java.net.http.HttpResponse.BodyHandlers.ofString()).body();
                for (String line : body.split("\n")) {
                    if (line.startsWith("warden_http_sessions ") && Double.parseDouble(line.substring(21).strip()) <= sessions) {
                        return true;
                    }
                }
            } catch (IOException e) {
                // not serving metrics yet, or ended: alive() decides
            }
            Thread.sleep(1_000); // a poll interval, not an ordering: the gauge decides
        }
        return false;
    }

    /**
     * Waits until the target's RSS reads at most {@code mib}, looking every five seconds ({@code
     * eachPoll} runs before each look: the honest client keeps using the gateway, as a real one
     * would); false when {@code bound} passed. Nothing is forced: what the JVM gives back is what
     * its own collector and trimming give back.
     */
    boolean awaitRssAtMost(long mib, Duration bound, Runnable eachPoll) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (alive()) {
            eachPoll.run();
            if (rssMiB() <= mib) {
                return true;
            }
            if (System.nanoTime() >= deadline) {
                return false;
            }
            Thread.sleep(5_000); // a poll interval, not an ordering: the RSS decides
        }
        return false;
    }

    /** A free loopback port for a gateway's {@code metrics} section. */
    static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Processes the target started (its stdio upstreams) that are running. */
    long upstreamProcesses() {
        return process.descendants().filter(ProcessHandle::isAlive).count();
    }

    @Override
    public void close() throws InterruptedException {
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        // What a stopped gateway left behind (a finding of its own) must not outlive the suite.
        children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        deleteQuietly(dataDir); // its configuration, data directory and stderr: hundreds of runs filled /tmp
    }

    private static void deleteQuietly(Path dir) {
        try (java.util.stream.Stream<Path> all = Files.walk(dir)) {
            all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | java.io.UncheckedIOException e) {
            // a file still open or already gone: what is left is the temporary directory's to clear
        }
    }
}
