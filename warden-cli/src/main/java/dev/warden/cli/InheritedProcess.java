package dev.warden.cli;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The wrapped server the launcher started before the JVM (so that a Node server's ~200 ms of
 * start-up overlaps the JVM's own): a child of this process, its stdin, stdout and stderr inherited
 * as file descriptors 3, 4 and 5. The descriptors are taken over as they are (not reopened), so
 * closing the server's stdin really closes it and the server sees end of input, as with a child
 * the JVM started itself.
 *
 * <p>The JVM did not start it: it is reaped, and its exit code read, through the JDK's own wait for
 * its children where the launcher opened that to Warden; else its exit is seen without reaping (it
 * stays a zombie until Warden exits) and its exit status read from {@code /proc/PID/stat}; where
 * that file is missing, the code is unknown ({@value #UNKNOWN_EXIT}).
 */
final class InheritedProcess extends Process {

    static final int UNKNOWN_EXIT = -1;

    private final long pid;
    private final FileOutputStream stdin;
    private final FileInputStream stdout;
    private final FileInputStream stderr;
    private final CompletableFuture<Process> exit;

    /** Whether the process is still this one's child (else it ended before the JVM started and was reaped). */
    private final boolean ours;

    private InheritedProcess(long pid, FileDescriptor in, FileDescriptor out, FileDescriptor err, boolean ours,
            int endedWith) {
        this.pid = pid;
        this.ours = ours;
        this.stdin = new FileOutputStream(in);
        this.stdout = new FileInputStream(out);
        this.stderr = new FileInputStream(err);
        if (!ours) {
            // What it wrote is still in the pipes; its exit code is what the launcher saw, if it saw it end.
            exitCode = endedWith;
            this.exit = CompletableFuture.completedFuture(this);
            return;
        }
        // Reaped as the JDK reaps the children it starts, when the launcher let Warden reach that
        // (--add-opens java.base/java.lang): an unreaped server would stay a zombie, which anyone
        // waiting for it to end (a supervisor, a test) takes for a live process.
        Optional<CompletableFuture<Integer>> reaped = reaping(pid);
        if (reaped.isPresent()) {
            this.exit = reaped.get().thenApply(code -> {
                exitCode = code;
                return (Process) this;
            });
        } else {
            // Seen without reaping; a server that already ended (it could not start) is a zombie,
            // which the JDK counts as no process at all: its exit is then already complete.
            this.exit = ProcessHandle.of(pid).filter(h -> !zombie(pid))
                    .map(h -> h.onExit().thenApply(ended -> (Process) this))
                    .orElseGet(() -> CompletableFuture.completedFuture(this));
        }
    }

    private volatile Integer exitCode;

    /**
     * The JDK's own wait for a child's exit that reaps it and gives its exit code (what {@link
     * Process#onExit} uses for the children it starts): empty where it cannot be reached.
     */
    @SuppressWarnings("unchecked")
    private static Optional<CompletableFuture<Integer>> reaping(long pid) {
        try {
            java.lang.reflect.Method completion = Class.forName("java.lang.ProcessHandleImpl")
                    .getDeclaredMethod("completion", long.class, boolean.class);
            completion.setAccessible(true);
            return Optional.ofNullable((CompletableFuture<Integer>) completion.invoke(null, pid, true));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The inherited server with this pid, on descriptors 3 (its stdin), 4 (its stdout) and 5 (its
     * stderr); empty if the descriptors cannot be taken over (the JVM was started without {@code
     * --add-opens java.base/java.io=ALL-UNNAMED}). A server that is no longer this process's child
     * ended while the launcher still ran (the shell reaped it): it is taken as ended, with the exit
     * code the launcher passed ({@code endedWith}) or {@value #UNKNOWN_EXIT}.
     */
    static Optional<InheritedProcess> of(long pid, java.util.OptionalInt endedWith) {
        if (!handedOver()) {
            // The variable without the descriptors: inherited from a Warden further up (a process it
            // started itself passes its environment on, but not its descriptors). Nothing to take.
            return Optional.empty();
        }
        boolean ours = parentOf(pid) == ProcessHandle.current().pid();
        try {
            return Optional.of(new InheritedProcess(pid, descriptor(3), descriptor(4), descriptor(5), ours,
                    endedWith.orElse(UNKNOWN_EXIT)));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Whether descriptors 3, 4 and 5 are the launcher's pipes (their names start {@value #PIPES}). */
    static boolean handedOver() {
        for (int fd = 3; fd <= 5; fd++) {
            try {
                if (!Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString().contains(PIPES)) {
                    return false;
                }
            } catch (IOException | RuntimeException e) {
                return false;
            }
        }
        return true;
    }

    /** The launcher's pipes are made in a directory of this name ({@code warden}'s {@code pipes=}). */
    static final String PIPES = "/warden-wrap.";

    /** Whether the process is this one's child, so that stopping it stops the server and nothing else. */
    boolean ours() {
        return ours;
    }

    /** Field 4 of {@code /proc/PID/stat} (after the parenthesized name, which may hold spaces); -1 if unreadable. */
    static long parentOf(long pid) {
        return statField(pid, 1).map(Long::parseLong).orElse(-1L);
    }

    private static boolean zombie(long pid) {
        return statField(pid, 0).map(state -> state.equals("Z") || state.equals("X")).orElse(true);
    }

    /** The {@code index}-th field after the process name in {@code /proc/PID/stat} (0: state, 1: parent). */
    private static Optional<String> statField(long pid, int index) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).strip().split(" ");
            return index < fields.length ? Optional.of(fields[index]) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static FileDescriptor descriptor(int fd) throws ReflectiveOperationException {
        FileDescriptor descriptor = new FileDescriptor();
        Field field = FileDescriptor.class.getDeclaredField("fd");
        field.setAccessible(true);
        field.setInt(descriptor, fd);
        return descriptor;
    }

    @Override
    public OutputStream getOutputStream() {
        return stdin;
    }

    @Override
    public InputStream getInputStream() {
        return stdout;
    }

    @Override
    public InputStream getErrorStream() {
        return stderr;
    }

    @Override
    public int waitFor() throws InterruptedException {
        try {
            exit.get();
        } catch (ExecutionException e) {
            return UNKNOWN_EXIT;
        }
        return exitValue();
    }

    @Override
    public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
        try {
            exit.get(timeout, unit);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return true;
        }
    }

    @Override
    public CompletableFuture<Process> onExit() {
        return exit;
    }

    @Override
    public int exitValue() {
        if (!exit.isDone()) {
            throw new IllegalThreadStateException("process " + pid + " has not exited");
        }
        Integer reaped = exitCode;
        return reaped != null ? reaped : statusOf(pid);
    }

    @Override
    public boolean isAlive() {
        return !exit.isDone();
    }

    @Override
    public void destroy() {
        if (ours && !exit.isDone()) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
        }
    }

    @Override
    public Process destroyForcibly() {
        if (ours && !exit.isDone()) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        return this;
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    public ProcessHandle toHandle() {
        return ProcessHandle.of(pid).orElseThrow(() -> new UnsupportedOperationException("process " + pid + " has exited"));
    }

    /**
     * The exit code of an unreaped child, from the last field of {@code /proc/PID/stat} (the status
     * as {@code waitpid} reports it): the code it exited with, or 128 + the signal that ended it,
     * as a shell says.
     */
    static int statusOf(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII).strip();
            int status = Integer.parseInt(stat.substring(stat.lastIndexOf(' ') + 1));
            int signal = status & 0x7f;
            return signal == 0 ? (status >> 8) & 0xff : 128 + signal;
        } catch (IOException | RuntimeException e) {
            return UNKNOWN_EXIT;
        }
    }
}
