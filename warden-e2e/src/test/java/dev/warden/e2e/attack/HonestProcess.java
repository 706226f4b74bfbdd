package dev.warden.e2e.attack;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The honest client in a JVM of its own, as it is in real life: its echoes do not wait behind the
 * attacking clients' threads, garbage collections and compilations in the suite's JVM, which are
 * the suite's cost, not the gateway's. The suite drives it over its stdin, one command a line:
 * {@code open URL TOOL} (a session of its own on URL, echoing TOOL: answered {@code ready} or
 * {@code fail WHAT}), {@code echo N} (N echoes in a row), {@code loop} (echoes until a line
 * {@code stop}) or {@code close} (the session's connections closed); it answers each echo with a
 * line {@code ok NANOS} or {@code fail WHAT}, and each command but {@code open} with {@code done}.
 * One JVM serves the attacks one after another ({@link Kept}), each on a new session on that
 * attack's own target: a JVM started for each attack was a quarter of the suite's time.
 */
final class HonestProcess implements AutoCloseable {

    private final Process process;
    private final BufferedWriter commands;
    private final BufferedReader results;
    private final AtomicReference<String> firstFailure = new AtomicReference<>();

    private HonestProcess(Process process) {
        this.process = process;
        this.commands = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        this.results = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Starts it on this JVM's java and class path, with a small serial heap (a client's); no session yet. */
    static HonestProcess start() throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // Its connections are kept 10 s idle, under the gateway's 30 s (Jetty's idle timeout): with
        // the JDK's default of 30 s too, a connection the gateway had just closed was sometimes
        // taken for the next echo ("header parser received no bytes"), once in 100,000 echoes.
        // The JVM's own messages go to stderr: stdout carries only the results.
        Process process = new ProcessBuilder(java, "-XX:+UseSerialGC", "-Xmx128m", "-XX:+DisplayVMOutputToStderr",
                "-Djdk.httpclient.keepalive.timeout=10", "-cp",
                System.getProperty("java.class.path"), HonestProcess.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        return new HonestProcess(process);
    }

    /** Opens its session on {@code url}, echoing {@code tool}, and waits until it is open. */
    void open(String url, String tool) throws IOException {
        firstFailure.set(null);
        send("open " + url + " " + tool);
        String ready = results.readLine();
        if (!"ready".equals(ready)) {
            throw new IOException("the honest client did not open its session: " + ready);
        }
    }

    /** Closes its session's connections (a gateway stopping gracefully would wait for them). */
    void closeSession() {
        run("close", new Honest.Sample());
    }

    boolean alive() {
        return process.isAlive();
    }

    /** {@code n} echoes in a row. */
    Honest.Sample sample(int n) {
        Honest.Sample sample = new Honest.Sample();
        run("echo " + n, sample);
        return sample;
    }

    /** One echo: its latency in nanoseconds, or empty when it was not served. */
    Optional<Long> echo() {
        Honest.Sample sample = sample(1);
        return sample.nanos.isEmpty() ? Optional.empty() : Optional.of(sample.nanos.get(0));
    }

    /** What the first echo that was not served got instead (for the table's notes). */
    Optional<String> firstFailure() {
        return Optional.ofNullable(firstFailure.get());
    }

    /** Echoes in a loop until {@link Loop#stop}. */
    Loop loop() {
        return new Loop();
    }

    final class Loop {
        private final Honest.Sample sample = new Honest.Sample();
        private final Thread reader;

        private Loop() {
            CountDownLatch spared = new CountDownLatch(1);
            reader = Thread.ofPlatform().daemon().name("honest-results").start(() -> {
                AttackerPriority.spareThisThread(); // it reads the honest client's results, not the attacker's
                spared.countDown();
                run("loop", sample);
            });
            try {
                spared.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        Honest.Sample stop() throws InterruptedException {
            send("stop");
            reader.join(Honest.GUARD.plusSeconds(5).toMillis());
            return sample;
        }
    }

    /** Sends a command and reads its results up to {@code done}; an ended process counts as one failure. */
    private void run(String command, Honest.Sample into) {
        send(command);
        try {
            for (String line = results.readLine(); ; line = results.readLine()) {
                if (line == null) {
                    firstFailure.compareAndSet(null, "the honest client's process ended");
                    into.add(Optional.empty());
                    return;
                }
                if (line.equals("done")) {
                    return;
                }
                if (line.startsWith("ok ")) {
                    into.add(Optional.of(Long.parseLong(line.substring(3))));
                } else {
                    firstFailure.compareAndSet(null, line.substring(Math.min(5, line.length())));
                    into.add(Optional.empty());
                }
            }
        } catch (IOException e) {
            firstFailure.compareAndSet(null, e.toString());
            into.add(Optional.empty());
        }
    }

    private synchronized void send(String command) {
        try {
            commands.write(command);
            commands.newLine();
            commands.flush();
        } catch (IOException e) {
            firstFailure.compareAndSet(null, "the honest client's process is gone: " + e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        try {
            commands.close();
        } catch (IOException e) {
            // it ends on the closed stdin or is destroyed below
        }
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    /** The child: a session at a time, opened by {@code open}, echoing its tool. */
    public static void main(String[] args) throws Exception {
        Optional<Honest> honest = Optional.empty();
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.startsWith("open ")) {
                honest.ifPresent(Honest::close);
                String[] urlAndTool = line.substring(5).split(" ", 2);
                try {
                    honest = Optional.of(new Honest(new McpHttp(urlAndTool[0]), urlAndTool[1]));
                    out.println("ready");
                } catch (Exception e) {
                    honest = Optional.empty();
                    out.println("fail " + String.valueOf(e).replace('\n', ' '));
                }
                continue;
            }
            if (line.equals("close")) {
                honest.ifPresent(Honest::close);
                honest = Optional.empty();
            } else if (line.startsWith("echo ")) {
                for (int i = Integer.parseInt(line.substring(5)); i > 0; i--) {
                    report(out, honest.orElseThrow());
                }
            } else if (line.equals("loop")) {
                Honest looping = honest.orElseThrow();
                AtomicBoolean running = new AtomicBoolean(true);
                Thread loop = Thread.ofPlatform().name("honest-loop").start(() -> {
                    while (running.get()) {
                        report(out, looping);
                    }
                });
                String stop = in.readLine(); // "stop", or the end of stdin
                running.set(false);
                loop.join();
                if (stop == null) {
                    return;
                }
            }
            out.println("done");
        }
    }

    private static void report(PrintStream out, Honest honest) {
        Optional<Long> latency = honest.echo();
        out.println(latency.map(nanos -> "ok " + nanos)
                .orElseGet(() -> "fail " + String.valueOf(honest.lastFailure.get()).replace('\n', ' ')));
    }

    /**
     * The honest client's JVM, started for the first attack and kept for those that follow (a new
     * one when it ended), each attack opening its own session on its own target.
     */
    static final class Kept implements AutoCloseable {
        private Optional<HonestProcess> process = Optional.empty();

        /** The kept JVM, its session opened on {@code url}. */
        HonestProcess on(String url, String tool) throws IOException, InterruptedException {
            if (process.isEmpty() || !process.get().alive()) {
                close();
                process = Optional.of(start());
            }
            process.get().open(url, tool);
            return process.get();
        }

        @Override
        public void close() throws InterruptedException {
            if (process.isPresent()) {
                process.get().close();
                process = Optional.empty();
            }
        }
    }
}
