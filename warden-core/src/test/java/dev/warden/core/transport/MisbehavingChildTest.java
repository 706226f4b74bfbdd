package dev.warden.core.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.warden.core.error.ConnectionClosedException;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.session.OutgoingRequest;
import dev.warden.core.session.RequestOptions;
import dev.warden.core.session.Session;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Real children that answer in a broken way, or leave something behind. Requests get long timeouts:
 * the 30 s bounds only catch a hang; correct code answers long before either.
 */
class MisbehavingChildTest {

    private static final RequestOptions PATIENT = RequestOptions.ofDefaults().withTimeout(Duration.ofMinutes(5));

    @Test
    void anAnswerInLatin1FailsItsRequestAtOnce() throws Exception {
        // Reads the request, answers id 1 with "café" in ISO-8859-1 (byte E9: not UTF-8), then idles.
        ProcessTransport transport = ProcessTransport.launch(List.of("sh", "-c",
                "read line; printf '{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"text\":\"caf\\351\"}}\\n'; exec sleep 1000"),
                Map.of(), Optional.empty(), line -> { });
        try (Session session = Session.builder(transport).build()) {
            session.start();
            OutgoingRequest request = session.request("tools/call", Json.object(), PATIENT);

            Throwable failure = assertTimeoutPreemptively(Duration.ofSeconds(30),
                    () -> catchThrowable(request::get));

            assertThat(failure).isInstanceOf(ExecutionException.class).cause().isInstanceOf(PeerErrorException.class);
            assertThat(((PeerErrorException) failure.getCause()).error().code()).isEqualTo(JsonRpcError.PARSE_ERROR);
        }
    }

    @Test
    void aChildThatExitsLeavingItsStdoutHeldOpenIsReportedClosed() throws Exception {
        CompletableFuture<Long> leftBehind = new CompletableFuture<>();
        // The background sleep inherits stdout and stderr and outlives the shell: stdout never ends.
        ProcessTransport transport = ProcessTransport.launch(List.of("sh", "-c", "sleep 1000 & echo $! >&2; exit 0"),
                Map.of(), Optional.empty(), line -> leftBehind.complete(Long.parseLong(line.strip())));
        Session session = Session.builder(transport).build();
        try {
            session.start();
            OutgoingRequest request = session.request("tools/call", Json.object(), PATIENT);

            Throwable failure = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> catchThrowable(request::get));

            assertThat(failure).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(ConnectionClosedException.class);
            assertThat(session.closed()).succeedsWithin(Duration.ofSeconds(30));
        } finally {
            session.close();
            ProcessHandle.of(leftBehind.get(30, TimeUnit.SECONDS)).ifPresent(ProcessHandle::destroy);
        }
    }

    /**
     * More children whose stderr never ends than the virtual-thread scheduler has carriers (one, in a
     * JVM of its own): a virtual thread still runs, because no pipe is read on a virtual thread.
     */
    @Test
    void childrenWhoseStderrNeverEndsLeaveTheVirtualThreadSchedulerFree() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process probe = new ProcessBuilder(java, "-Djdk.virtualThreadScheduler.parallelism=1",
                "-Djdk.virtualThreadScheduler.maxPoolSize=1", "-cp", System.getProperty("java.class.path"),
                CarrierProbeMain.class.getName()).redirectErrorStream(true).start();
        try {
            String out = assertTimeoutPreemptively(Duration.ofSeconds(60),
                    () -> new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            assertThat(out).contains("a virtual thread ran");
        } finally {
            probe.destroyForcibly();
        }
    }

    /** A process whose stdout a test holds open after it exited, as a grandchild would (the JDK's own pipes end at exit). */
    private static final class ExitedHoldingStdout extends Process {
        final CompletableFuture<Process> exit = new CompletableFuture<>();
        final java.io.PipedOutputStream stdoutWriter = new java.io.PipedOutputStream();
        final java.io.PipedInputStream stdout;

        ExitedHoldingStdout() throws java.io.IOException {
            stdout = new java.io.PipedInputStream(stdoutWriter);
        }

        @Override
        public java.io.OutputStream getOutputStream() {
            return java.io.OutputStream.nullOutputStream();
        }

        @Override
        public java.io.InputStream getInputStream() {
            return stdout;
        }

        @Override
        public java.io.InputStream getErrorStream() {
            return java.io.InputStream.nullInputStream();
        }

        @Override
        public int waitFor() {
            return exit.join().exitValue();
        }

        @Override
        public int exitValue() {
            if (!exit.isDone()) {
                throw new IllegalThreadStateException("running");
            }
            return 0;
        }

        @Override
        public boolean isAlive() {
            return !exit.isDone();
        }

        @Override
        public CompletableFuture<Process> onExit() {
            return exit;
        }

        @Override
        public void destroy() {
            exit.complete(this);
        }
    }

    @Test
    void anAdoptedChildThatExitsWhileItsStdoutStaysOpenIsReportedClosed() throws Exception {
        ExitedHoldingStdout process = new ExitedHoldingStdout();
        ProcessTransport transport = ProcessTransport.adopt(process, line -> { }, StdioTransport.DEFAULT_MAX_MESSAGE_BYTES);
        try (Session session = Session.builder(transport).build()) {
            session.start();
            OutgoingRequest request = session.request("tools/call", Json.object(), PATIENT);

            process.exit.complete(process);
            Throwable failure = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> catchThrowable(request::get));

            assertThat(failure).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(ConnectionClosedException.class);
            assertThat(session.closed()).succeedsWithin(Duration.ofSeconds(30));
        } finally {
            process.stdoutWriter.close();
        }
    }
}
