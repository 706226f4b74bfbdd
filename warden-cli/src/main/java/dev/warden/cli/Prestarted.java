package dev.warden.cli;

import dev.warden.core.transport.ProcessTransport;
import dev.warden.core.transport.StderrSink;
import dev.warden.core.transport.StdioTransport;
import dev.warden.core.transport.Transport;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The server of {@code warden wrap} started before anything else, even before the command line
 * is parsed, so it boots (a Node server takes about 200 ms) while Warden does instead of after.
 * The first connection gets that process; later ones (after a crash) start anew. Its stderr lines
 * wait, a bounded few, until the wrap command says how to log them; so does its exit, if it ended
 * already (a server that cannot start often does, before the command line is parsed).
 */
final class Prestarted implements Supplier<Transport>, AutoCloseable {

    private static final int EARLY_STDERR_LINES = 256;
    private static final AtomicReference<Prestarted> EARLY = new AtomicReference<>();

    private final List<String> command;
    /** The message limit the process was started with: one started early with another is not used. */
    private final int maxMessageBytes;
    private final AtomicReference<Transport> ready = new AtomicReference<>();
    private final Queue<String> earlyLines = new ArrayDeque<>();
    private Runnable earlyExit;
    private StderrSink stderr;
    private Supplier<Transport> launch;

    private Prestarted(List<String> command, int maxMessageBytes) {
        this(command, maxMessageBytes, Optional.empty());
    }

    /** @param inherited the server the launcher started already, to adopt rather than start */
    private Prestarted(List<String> command, int maxMessageBytes, Optional<InheritedProcess> inherited) {
        this.command = command;
        this.maxMessageBytes = maxMessageBytes;
        StderrSink early = new StderrSink() {
            @Override
            public void line(String line) {
                stderrLine(line);
            }

            @Override
            public void exited(int exitCode, List<String> lastLines) {
                stderrExit(exitCode, lastLines);
            }
        };
        try {
            ready.set(inherited.isPresent() ? ProcessTransport.adopt(inherited.get(), early, maxMessageBytes)
                    : ProcessTransport.launch(command, Map.of(), Optional.empty(), early, maxMessageBytes));
        } catch (RuntimeException e) {
            // Left to the first connection, which launches again and reports why it cannot.
        }
    }

    /**
     * The launcher's variable naming the server it started for {@code wrap} ({@code PID:INDEX}, the
     * index of the command's first word in the arguments; {@code PID:INDEX:CODE} if it saw the
     * server end already, with its exit code), on descriptors 3, 4 and 5.
     */
    static final String INHERITED_VARIABLE = "WARDEN_PRESTARTED";

    /**
     * Starts the server when the arguments are {@code wrap [options] [--] COMMAND…}, finding the
     * command as the parser will ({@link WrapCommand#commandStart}).
     */
    static void startEarly(String[] args) {
        Optional<InheritedProcess> inherited = inherited(args);
        if (args.length < 2 || !args[0].equals("wrap")) {
            inherited.ifPresent(InheritedProcess::destroy);
            return;
        }
        OptionalInt start = WrapCommand.commandStart(args, 1);
        OptionalInt limit = start.isPresent() ? maxMessageBytes(args, start.getAsInt()) : OptionalInt.empty();
        if (start.isPresent() && limit.isPresent()) {
            EARLY.set(new Prestarted(List.copyOf(Arrays.asList(args).subList(start.getAsInt(), args.length)),
                    limit.getAsInt(), inherited));
        } else {
            inherited.ifPresent(InheritedProcess::destroy);
        }
    }

    /**
     * The server the launcher started, if it started one for the command these arguments name (the
     * launcher finds the command as {@link WrapCommand#commandStart} does; if the two disagree, or
     * the server cannot be taken over, it is stopped and Warden starts the command itself).
     */
    private static Optional<InheritedProcess> inherited(String[] args) {
        String said = System.getenv(INHERITED_VARIABLE);
        if (said == null) {
            return Optional.empty();
        }
        String[] fields = said.split(":");
        long pid;
        int index;
        OptionalInt ended = OptionalInt.empty();
        try {
            pid = Long.parseLong(fields[0]);
            index = Integer.parseInt(fields[1]);
            if (fields.length > 2) {
                ended = OptionalInt.of(Integer.parseInt(fields[2]));
            }
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        Optional<InheritedProcess> process = InheritedProcess.of(pid, ended);
        OptionalInt start = args.length >= 2 && args[0].equals("wrap") ? WrapCommand.commandStart(args, 1)
                : OptionalInt.empty();
        if (process.isPresent() && (start.isEmpty() || start.getAsInt() != index)) {
            process.get().destroy();
            return Optional.empty();
        }
        if (process.isEmpty() && InheritedProcess.parentOf(pid) == ProcessHandle.current().pid()) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy); // ours, but not to be taken over
        }
        return process;
    }

    /** The {@code --max-message-bytes} among wrap's options (before {@code end}), the default if none; empty if unreadable. */
    static OptionalInt maxMessageBytes(String[] args, int end) {
        int limit = StdioTransport.DEFAULT_MAX_MESSAGE_BYTES;
        for (int i = 1; i < end; i++) {
            String value = null;
            if (args[i].equals(MaxMessageBytesOption.NAME) && i + 1 < end) {
                value = args[++i];
            } else if (args[i].startsWith(MaxMessageBytesOption.NAME + "=")) {
                value = args[i].substring(MaxMessageBytesOption.NAME.length() + 1);
            }
            if (value != null) {
                try {
                    limit = Integer.parseInt(value);
                } catch (NumberFormatException e) {
                    return OptionalInt.empty(); // the parser will say what is wrong
                }
            }
        }
        return OptionalInt.of(limit);
    }

    /**
     * The process for this command: the one started early if it is the same command, else none yet;
     * its stderr goes to {@code stderr} from now on, and connections after the first use {@code launch}.
     */
    static Prestarted claim(List<String> command, StderrSink stderr, Supplier<Transport> launch) {
        return claim(command, StdioTransport.DEFAULT_MAX_MESSAGE_BYTES, stderr, launch);
    }

    /** {@link #claim(List, StderrSink, Supplier)} for a process that accepts messages up to {@code maxMessageBytes}. */
    static Prestarted claim(List<String> command, int maxMessageBytes, StderrSink stderr, Supplier<Transport> launch) {
        Prestarted early = EARLY.getAndSet(null);
        if (early != null && (!early.command.equals(command) || early.maxMessageBytes != maxMessageBytes)) {
            early.close();
            early = null;
        }
        Prestarted claimed = early != null ? early : new Prestarted(command, maxMessageBytes);
        claimed.attach(stderr, launch);
        return claimed;
    }

    /** Stops a process started early that no command claimed (the arguments were wrong, say). */
    static void discardUnclaimed() {
        Prestarted early = EARLY.getAndSet(null);
        if (early != null) {
            early.close();
        }
    }

    private synchronized void stderrLine(String line) {
        if (stderr != null) {
            stderr.line(line);
        } else if (earlyLines.size() < EARLY_STDERR_LINES) {
            earlyLines.add(line);
        }
    }

    private synchronized void stderrExit(int exitCode, List<String> lastLines) {
        if (stderr != null) {
            stderr.exited(exitCode, lastLines);
        } else {
            earlyExit = () -> stderr.exited(exitCode, lastLines);
        }
    }

    private synchronized void attach(StderrSink sink, Supplier<Transport> launcher) {
        this.launch = launcher;
        this.stderr = sink;
        earlyLines.forEach(sink::line);
        earlyLines.clear();
        if (earlyExit != null) {
            earlyExit.run();
            earlyExit = null;
        }
    }

    @Override
    public Transport get() {
        Transport transport = ready.getAndSet(null);
        return transport != null ? transport : launch.get();
    }

    /** Stops the process if no connection took it (the client left before initializing). */
    @Override
    public void close() {
        Transport transport = ready.getAndSet(null);
        if (transport != null) {
            transport.close();
        }
    }
}
