package dev.warden.core.transport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The client side of the stdio transport: launches an MCP server as a subprocess and speaks
 * newline-delimited JSON over its stdin and stdout. The child's stderr is read line by line and
 * handed to a {@link StderrSink} (the log), never parsed as protocol; if the child ends before it
 * is asked to, the sink hears its exit code and last stderr lines. Closing ends the child: stdin
 * is closed first so it can exit on its own, then it is terminated, then killed, even when its stdin
 * is full and a write to it blocked.
 *
 * <p>The end of the direct child is the end of the connection: a child that exits while a process
 * it left behind holds its stdout open (a server that forks and exits) is reported closed once its
 * stdout has not ended within a grace, so whoever restarts upstreams restarts it.
 *
 * <p>The child's pipes are read on platform threads: a read blocked in the kernel would hold a
 * virtual thread's carrier, and enough of them (one per child) would stop every virtual thread.
 */
public final class ProcessTransport implements Transport {

    /** Longest stderr line passed on; the rest of a longer line is dropped. */
    public static final int MAX_STDERR_LINE = 8192;
    /** How many of the last stderr lines are kept to report an exit with. */
    public static final int TAIL_LINES = 20;
    /** Longest line kept for that report: the tail is for telling why, not for the record. */
    static final int TAIL_LINE_CHARS = 1000;
    /** How long an exit report waits for stderr lines still in the pipe. */
    private static final Duration STDERR_DRAIN = Duration.ofSeconds(1);

    private final Process process;
    private final StdioTransport stdio;
    private final Duration exitGrace;
    private final Deque<String> tail = new ArrayDeque<>();
    private final CountDownLatch stderrEnded = new CountDownLatch(1);
    /** Set when {@link #close()} asks a live child to stop: its exit is then no news. */
    private volatile boolean stopAsked;
    private final CompletableFuture<Boolean> exitReported = new CompletableFuture<>();
    /** Completes when the transport is started: the child's exit means nothing to a listener before that. */
    private final CompletableFuture<Void> started = new CompletableFuture<>();

    private ProcessTransport(Process process, int maxMessageBytes, OutgoingLimits limits, Duration exitGrace) {
        this.process = process;
        this.stdio = StdioTransport.ofChild(process.getInputStream(), process.getOutputStream(), maxMessageBytes,
                limits);
        this.exitGrace = exitGrace;
    }

    /**
     * Starts {@code command}.
     *
     * @param environment added to this process's environment
     * @param stderr receives each line the child writes to stderr, and its exit if it ends unasked
     * @throws ProcessStartException if the command cannot be started
     */
    public static ProcessTransport launch(List<String> command, Map<String, String> environment,
                                          Optional<Path> directory, StderrSink stderr) {
        return launch(command, environment, directory, stderr, StdioTransport.DEFAULT_MAX_MESSAGE_BYTES);
    }

    /** @param maxMessageBytes the largest message accepted from the child; a larger one fails its request */
    public static ProcessTransport launch(List<String> command, Map<String, String> environment,
                                          Optional<Path> directory, StderrSink stderr, int maxMessageBytes) {
        return launch(command, environment, false, directory, stderr, maxMessageBytes, OutgoingLimits.DEFAULTS);
    }

    /**
     * Starts {@code command} with exactly {@code environment}: nothing of this process's own
     * environment is inherited (a gateway decides what each server it starts may see).
     */
    public static ProcessTransport launchWithExactEnvironment(List<String> command, Map<String, String> environment,
                                                              Optional<Path> directory, StderrSink stderr,
                                                              int maxMessageBytes) {
        return launch(command, environment, true, directory, stderr, maxMessageBytes, OutgoingLimits.DEFAULTS);
    }

    /** @param limits how much is queued for a child slow to read its stdin, and how long a sender waits */
    public static ProcessTransport launch(List<String> command, Map<String, String> environment,
                                          Optional<Path> directory, StderrSink stderr, int maxMessageBytes,
                                          OutgoingLimits limits) {
        return launch(command, environment, false, directory, stderr, maxMessageBytes, limits);
    }

    private static ProcessTransport launch(List<String> command, Map<String, String> environment, boolean exact,
                                           Optional<Path> directory, StderrSink stderr, int maxMessageBytes,
                                           OutgoingLimits limits) {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(limits, "limits");
        if (command.isEmpty()) {
            throw new IllegalArgumentException("command must name a program");
        }
        ProcessBuilder builder = new ProcessBuilder(command);
        if (exact) {
            builder.environment().clear();
        }
        builder.environment().putAll(environment);
        directory.ifPresent(dir -> builder.directory(dir.toFile()));
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            // The message names the program only: arguments may carry credentials.
            throw new ProcessStartException("cannot start " + command.get(0) + ": " + e.getMessage(), e);
        }
        ProcessTransport transport = new ProcessTransport(process, maxMessageBytes, limits, Duration.ofSeconds(2));
        Objects.requireNonNull(stderr, "stderr");
        transport.pumpStderr(stderr);
        transport.watchExit(stderr);
        return transport;
    }

    /**
     * A transport over a process this one did not start through {@link ProcessBuilder} (the
     * {@code warden} launcher starts a wrapped server before the JVM, to overlap their start-ups):
     * the same stdio, stderr pump, exit report and close as a launched one.
     */
    public static ProcessTransport adopt(Process process, StderrSink stderr, int maxMessageBytes) {
        return adopt(process, stderr, maxMessageBytes, OutgoingLimits.DEFAULTS);
    }

    /** @param limits how much is queued for a child slow to read its stdin, and how long a sender waits */
    public static ProcessTransport adopt(Process process, StderrSink stderr, int maxMessageBytes,
                                         OutgoingLimits limits) {
        Objects.requireNonNull(process, "process");
        Objects.requireNonNull(stderr, "stderr");
        ProcessTransport transport = new ProcessTransport(process, maxMessageBytes, Objects.requireNonNull(limits,
                "limits"), Duration.ofSeconds(2));
        transport.pumpStderr(stderr);
        transport.watchExit(stderr);
        return transport;
    }

    private void pumpStderr(StderrSink sink) {
        // A platform thread: this read blocks in the kernel for as long as the child lives.
        Thread.ofPlatform().daemon().name("warden-child-stderr").start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    String cut = line.length() > MAX_STDERR_LINE ? line.substring(0, MAX_STDERR_LINE) : line;
                    synchronized (tail) {
                        if (tail.size() == TAIL_LINES) {
                            tail.removeFirst();
                        }
                        tail.addLast(cut.length() > TAIL_LINE_CHARS ? cut.substring(0, TAIL_LINE_CHARS) : cut);
                    }
                    try {
                        sink.line(cut);
                    } catch (RuntimeException e) {
                        // a failing log sink must not stop the pump (the child would block on a full pipe)
                    }
                }
            } catch (IOException e) {
                // the child is gone
            } finally {
                stderrEnded.countDown();
            }
        });
    }

    /**
     * Tells the sink of an exit nobody asked for, once the lines still in the pipe are read (a
     * grandchild holding stderr open delays that by at most {@link #STDERR_DRAIN}). Waiting is done
     * on a virtual thread, never on the JDK's process reaper.
     */
    private void watchExit(StderrSink sink) {
        process.onExit().thenCombine(started, (exited, ignored) -> exited).whenComplete((exited, failure) -> {
            if (!stopAsked) {
                Thread.ofVirtual().name("warden-child-exit").start(this::closeIfStdoutOutlivesTheChild);
            }
        });
        process.onExit().whenComplete((exited, failure) -> {
            if (stopAsked) {
                exitReported.complete(false);
                return;
            }
            Thread.ofVirtual().name("warden-child-exit").start(() -> {
                try {
                    stderrEnded.await(STDERR_DRAIN.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                List<String> last;
                synchronized (tail) {
                    last = List.copyOf(tail);
                }
                try {
                    sink.exited(process.exitValue(), last);
                } catch (RuntimeException e) {
                    // a failing log sink changes nothing for the connection
                } finally {
                    exitReported.complete(true);
                }
            });
        });
    }

    /**
     * The child exited on its own: its stdout normally ends with it (and the reader reports that).
     * If it is still open after a grace, a process the child left behind holds it: the connection is
     * over all the same, and is closed so that it is restarted rather than waited on for ever.
     */
    private void closeIfStdoutOutlivesTheChild() {
        try {
            if (!stdio.awaitInputOver(exitGrace)) {
                stdio.closeWithoutWaiting();
                System.getLogger(ProcessTransport.class.getName()).log(System.Logger.Level.WARNING,
                        "the server process exited but its stdout is still open (held by a process it started);"
                                + " the connection is closed");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Once the child ended: whether its exit was reported to the sink (it was not asked to stop). */
    CompletableFuture<Boolean> exitReported() {
        return exitReported;
    }

    @Override
    public void start(Listener listener) {
        Objects.requireNonNull(listener, "listener");
        stdio.start(listener);
        started.complete(null);
    }

    @Override
    public void send(String frame) {
        stdio.send(frame);
    }

    @Override
    public void send(String frame, Route route, CompletableFuture<?> answered) {
        stdio.send(frame, route, answered);
    }

    /** Bytes queued for the child's stdin and not yet written. */
    public long queuedBytes() {
        return stdio.queuedBytes();
    }

    /** The child's process id, for logs. */
    public long pid() {
        return process.pid();
    }

    /** The child's exit code, once it has exited. */
    public Optional<Integer> exitCode() {
        return process.isAlive() ? Optional.empty() : Optional.of(process.exitValue());
    }

    /**
     * The child's exit code, waiting up to {@code within} for it to exit: after its stdout ended,
     * the child is usually on its way out, but not yet reaped.
     */
    public Optional<Integer> exitCode(Duration within) {
        try {
            // The future, not Process.waitFor: that one holds a monitor, which pins a virtual thread (JDK 21).
            return Optional.of(process.onExit().get(within.toMillis(), TimeUnit.MILLISECONDS).exitValue());
        } catch (TimeoutException | ExecutionException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return exitCode();
        }
    }

    /**
     * Ends the child without ever blocking on its stdin: the writer closes it once what is queued is
     * written (the child's cue to exit); a child still running after a grace is terminated, then
     * killed. Waits use the exit future, not {@link Process#waitFor}, which holds a monitor (a pinned
     * carrier on JDK 21).
     */
    @Override
    public void close() {
        // A child still running now is asked to stop; one that already ended did so on its own.
        if (process.isAlive()) {
            stopAsked = true;
        }
        stdio.closeWithoutWaiting();
        try {
            if (!exited(exitGrace)) {
                process.destroy();
                if (!exited(exitGrace)) {
                    process.destroyForcibly();
                    exited(exitGrace);
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private boolean exited(Duration within) throws InterruptedException {
        try {
            process.onExit().get(within.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return !process.isAlive();
        }
    }
}
