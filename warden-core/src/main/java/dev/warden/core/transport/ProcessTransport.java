package dev.warden.core.transport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The client side of the stdio transport: launches an MCP server as a subprocess and speaks
 * newline-delimited JSON over its stdin and stdout. The child's stderr is read line by line and
 * handed to a consumer (the log), never parsed as protocol. Closing ends the child: stdin is
 * closed first so it can exit on its own, then it is terminated, then killed.
 */
public final class ProcessTransport implements Transport {

    /** Longest stderr line passed on; the rest of a longer line is dropped. */
    public static final int MAX_STDERR_LINE = 8192;

    private final Process process;
    private final StdioTransport stdio;
    private final Duration exitGrace;

    private ProcessTransport(Process process, int maxMessageBytes, Duration exitGrace) {
        this.process = process;
        this.stdio = StdioTransport.of(process.getInputStream(), process.getOutputStream(), maxMessageBytes);
        this.exitGrace = exitGrace;
    }

    /**
     * Starts {@code command}.
     *
     * @param environment added to this process's environment
     * @param stderrLine receives each line the child writes to stderr
     * @throws UncheckedIOException if the command cannot be started
     */
    public static ProcessTransport launch(List<String> command, Map<String, String> environment,
                                          Optional<Path> directory, Consumer<String> stderrLine) {
        return launch(command, environment, directory, stderrLine, StdioTransport.DEFAULT_MAX_MESSAGE_BYTES);
    }

    /** @param maxMessageBytes the largest message accepted from the child; a larger one fails its request */
    public static ProcessTransport launch(List<String> command, Map<String, String> environment,
                                          Optional<Path> directory, Consumer<String> stderrLine, int maxMessageBytes) {
        Objects.requireNonNull(command, "command");
        if (command.isEmpty()) {
            throw new IllegalArgumentException("command must name a program");
        }
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        directory.ifPresent(dir -> builder.directory(dir.toFile()));
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command.get(0), e);
        }
        ProcessTransport transport = new ProcessTransport(process, maxMessageBytes, Duration.ofSeconds(2));
        transport.pumpStderr(Objects.requireNonNull(stderrLine, "stderrLine"));
        return transport;
    }

    private void pumpStderr(Consumer<String> sink) {
        Thread.ofVirtual().name("warden-child-stderr").start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    try {
                        sink.accept(line.length() > MAX_STDERR_LINE ? line.substring(0, MAX_STDERR_LINE) : line);
                    } catch (RuntimeException e) {
                        // a failing log sink must not stop the pump (the child would block on a full pipe)
                    }
                }
            } catch (IOException e) {
                // the child is gone
            }
        });
    }

    @Override
    public void start(Listener listener) {
        stdio.start(listener);
    }

    @Override
    public void send(String frame) {
        stdio.send(frame);
    }

    /** The child's process id, for logs. */
    public long pid() {
        return process.pid();
    }

    /** The child's exit code, once it has exited. */
    public Optional<Integer> exitCode() {
        return process.isAlive() ? Optional.empty() : Optional.of(process.exitValue());
    }

    @Override
    public void close() {
        stdio.close();
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // already closed
        }
        try {
            if (!process.waitFor(exitGrace.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroy();
                if (!process.waitFor(exitGrace.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

}
