package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.warden.core.transport.ProcessTransport;
import dev.warden.core.transport.Transport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrestartedTest {

    @TempDir
    Path dir;

    @AfterEach
    void noneLeft() {
        Prestarted.discardUnclaimed();
    }

    private List<String> server(String script) {
        return List.of("sh", "-c", script);
    }

    /**
     * A named pipe for the server to write its pid to: reading it waits for the write itself (and the
     * server's write waits for the reader), so nothing polls for the file.
     */
    private Path pidPipe() throws Exception {
        Path fifo = dir.resolve("pid");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor()).isZero();
        return fifo;
    }

    private static long pidWrittenTo(Path fifo) {
        return assertTimeoutPreemptively(Duration.ofSeconds(30), () -> Long.parseLong(Files.readString(fifo).strip()));
    }

    private static boolean stops(long pid) {
        return ProcessHandle.of(pid).map(p -> p.onExit().orTimeout(10, TimeUnit.SECONDS).join()).isEmpty()
                || ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
    }

    @Test
    void theFirstConnectionGetsTheProcessStartedBeforeTheCommandLineWasParsed() throws Exception {
        Path pidFile = pidPipe();
        List<String> command = server("echo $$ > " + pidFile + "; exec cat");
        Prestarted.startEarly(concat(List.of("wrap", "--name", "x", "--"), command));
        long early = pidWrittenTo(pidFile);

        try (Prestarted claimed = Prestarted.claim(command, line -> { }, failing())) {
            Transport first = claimed.get();
            assertThat(((ProcessTransport) first).pid()).isEqualTo(early);
            first.close();
        }
    }

    @Test
    void laterConnectionsStartTheServerAnew() {
        List<String> command = server("exec cat");
        Prestarted.startEarly(concat(List.of("wrap", "--"), command));
        AtomicInteger launches = new AtomicInteger();
        Transport replacement = ProcessTransport.launch(command, java.util.Map.of(), java.util.Optional.empty(),
                line -> { });
        try (Prestarted claimed = Prestarted.claim(command, line -> { }, () -> {
            launches.incrementAndGet();
            return replacement;
        })) {
            claimed.get().close();
            assertThat(launches).hasValue(0);
            assertThat(claimed.get()).isSameAs(replacement);
            assertThat(launches).hasValue(1);
        } finally {
            replacement.close();
        }
    }

    @Test
    void stderrWrittenBeforeTheCommandClaimedTheProcessIsLoggedOnceItDoes() throws Exception {
        Path marker = pidPipe();
        // After its line the server writes more than a pipe holds (no newline: no second line), so
        // it gets to the marker only once Warden has read on past "booting": the line was read,
        // and held, while nobody had claimed the process.
        List<String> command = server("echo booting >&2; head -c 200000 /dev/zero | tr '\\0' x >&2; echo $$ > "
                + marker + "; exec cat");
        Prestarted.startEarly(concat(List.of("wrap", "--"), command));
        pidWrittenTo(marker);

        List<String> logged = new CopyOnWriteArrayList<>();
        try (Prestarted claimed = Prestarted.claim(command, logged::add, failing())) {
            // Lines held before the claim are logged by the claim itself.
            assertThat(logged).containsExactly("booting");
            claimed.get().close();
        }
    }

    @Test
    void anExitBeforeTheCommandClaimedTheProcessIsPassedOnOnceItDoes() throws Exception {
        Path pidFile = pidPipe();
        List<String> command = server("echo 'Error: no such directory' >&2; echo $$ > " + pidFile + "; exit 1");
        Prestarted.startEarly(concat(List.of("wrap", "--"), command));
        assertThat(stops(pidWrittenTo(pidFile))).isTrue();
        java.util.concurrent.CompletableFuture<String> exit = new java.util.concurrent.CompletableFuture<>();
        dev.warden.core.transport.StderrSink sink = new dev.warden.core.transport.StderrSink() {
            @Override
            public void line(String line) {
            }

            @Override
            public void exited(int exitCode, List<String> lastLines) {
                exit.complete(exitCode + " " + lastLines);
            }
        };

        try (Prestarted claimed = Prestarted.claim(command, sink, failing())) {
            assertThat(exit.get(60, TimeUnit.SECONDS)).isEqualTo("1 [Error: no such directory]");
            claimed.get().close();
        }
    }

    @Test
    void aProcessNoCommandClaimsIsStopped() throws Exception {
        Path pidFile = pidPipe();
        // --timeout wants a duration: the command line is refused after the server started
        Prestarted.startEarly(concat(List.of("wrap", "--timeout", "soonish", "--"), server("echo $$ > "
                + pidFile + "; exec cat")));
        long early = pidWrittenTo(pidFile);

        Prestarted.discardUnclaimed();

        assertThat(stops(early)).isTrue();
    }

    @Test
    void aDifferentCommandIsStartedAfreshAndTheEarlyProcessStopped() throws Exception {
        Path pidFile = pidPipe();
        Prestarted.startEarly(concat(List.of("wrap", "--"), server("echo $$ > " + pidFile + "; exec cat")));
        long early = pidWrittenTo(pidFile);

        try (Prestarted claimed = Prestarted.claim(server("exec cat"), line -> { }, failing())) {
            Transport transport = claimed.get();
            assertThat(((ProcessTransport) transport).pid()).isNotEqualTo(early);
            transport.close();
        }
        assertThat(stops(early)).isTrue();
    }

    @Test
    void theCommandNeedsNoSeparator() throws Exception {
        Path pidFile = pidPipe();
        List<String> command = server("echo $$ > " + pidFile + "; exec cat");
        Prestarted.startEarly(concat(List.of("wrap", "--name", "x"), command));
        long early = pidWrittenTo(pidFile);

        try (Prestarted claimed = Prestarted.claim(command, line -> { }, failing())) {
            Transport first = claimed.get();
            assertThat(((ProcessTransport) first).pid()).isEqualTo(early);
            first.close();
        }
    }

    @Test
    void onlyWrapWithACommandStartsAnything() {
        Prestarted.startEarly(new String[] {"gateway", "--", "sh", "-c", "exit 0"});
        Prestarted.startEarly(new String[] {"wrap", "--name", "x"});
        Prestarted.startEarly(new String[] {"wrap", "--"});
        Prestarted.startEarly(new String[] {"wrap", "--bogus", "sh", "-c", "exit 0"});
        AtomicInteger launches = new AtomicInteger();
        Supplier<Transport> counting = () -> {
            launches.incrementAndGet();
            throw new IllegalStateException("launched");
        };

        // Nothing was started early, so claiming launches the command itself (here: sh exits at once).
        try (Prestarted claimed = Prestarted.claim(server("exit 0"), line -> { }, counting)) {
            Transport transport = claimed.get();
            assertThat(transport).isInstanceOf(ProcessTransport.class);
            transport.close();
        }
        assertThat(launches).hasValue(0);
    }

    private static Supplier<Transport> failing() {
        return () -> {
            throw new AssertionError("the early process should have been used");
        };
    }

    private static String[] concat(List<String> head, List<String> tail) {
        List<String> all = new java.util.ArrayList<>(head);
        all.addAll(tail);
        return all.toArray(String[]::new);
    }
}
