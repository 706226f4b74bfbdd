package dev.warden.core.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.warden.core.error.ConnectionClosedException;
import dev.warden.core.json.Json;
import dev.warden.core.session.OutgoingRequest;
import dev.warden.core.session.Session;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** A real child process on the far end of the stdio transport. */
class ProcessTransportTest {

    private final List<String> stderr = new CopyOnWriteArrayList<>();

    private ProcessTransport child() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return ProcessTransport.launch(List.of(java, "-cp", System.getProperty("java.class.path"),
                EchoChildMain.class.getName()), Map.of(), Optional.empty(), stderr::add);
    }

    @Test
    void requestsReachTheChildAndAnswersComeBack() throws Exception {
        ProcessTransport transport = child();
        try (Session session = Session.builder(transport).build()) {
            session.start();
            JsonNode result = session.request("hello", Json.object().put("n", 7)).get(60, TimeUnit.SECONDS);
            assertThat(result.get("echo").get("n").asInt()).isEqualTo(7);
        }
    }

    @Test
    void theChildsStderrGoesToTheSinkNotToTheProtocol() throws Exception {
        ProcessTransport transport = child();
        try (Session session = Session.builder(transport).build()) {
            session.start();
            session.request("hello", Json.object()).get(60, TimeUnit.SECONDS);
        }
        assertThat(stderr).anyMatch(line -> line.contains("child started"));
        assertThat(stderr).anyMatch(line -> line.contains("handling hello"));
    }

    @Test
    void aChildThatExitsFailsWhatIsPendingWithConnectionClosed() throws Exception {
        ProcessTransport transport = child();
        try (Session session = Session.builder(transport).build()) {
            session.start();
            OutgoingRequest hanging = session.request("hang", Json.object());
            session.request("exit", Json.object());
            Throwable failure = catchThrowable(() -> hanging.get(60, TimeUnit.SECONDS));
            assertThat(failure).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(ConnectionClosedException.class);
            session.closed().get(60, TimeUnit.SECONDS);
        }
        assertThat(transport.exitCode()).contains(3);
    }

    @Test
    void closingEndsTheChild() throws Exception {
        ProcessTransport transport = child();
        Session session = Session.builder(transport).build();
        session.start();
        session.request("hello", Json.object()).get(60, TimeUnit.SECONDS);
        session.close();
        assertThat(transport.exitCode()).isPresent();
    }

    @Test
    void aProgramThatDoesNotExistFailsToLaunchWithItsName() {
        Throwable failure = catchThrowable(() -> ProcessTransport.launch(List.of("/nonexistent/mcp-server"), Map.of(),
                Optional.empty(), line -> { }));
        assertThat(failure).hasMessageContaining("/nonexistent/mcp-server");
    }

    @Test
    void aProgramThatDoesNotExistFailsWithProcessStartException() {
        Throwable failure = catchThrowable(() -> ProcessTransport.launch(List.of("/nonexistent/mcp-server"), Map.of(),
                Optional.empty(), line -> { }));
        assertThat(failure).isInstanceOf(ProcessStartException.class);
    }

    /** Records what a sink hears, and lets a test wait for the exit report. */
    private static final class Heard implements StderrSink {
        final List<String> lines = new CopyOnWriteArrayList<>();
        final java.util.concurrent.CompletableFuture<String> exit = new java.util.concurrent.CompletableFuture<>();
        final java.util.concurrent.CountDownLatch firstLine = new java.util.concurrent.CountDownLatch(1);

        @Override
        public void line(String line) {
            lines.add(line);
            firstLine.countDown();
        }

        @Override
        public void exited(int exitCode, List<String> lastLines) {
            exit.complete(exitCode + " " + lastLines);
        }
    }

    @Test
    void aChildThatExitsUnaskedReportsItsCodeAndItsLastStderrLines() throws Exception {
        Heard heard = new Heard();
        ProcessTransport transport = ProcessTransport.launch(List.of("sh", "-c",
                "for i in $(seq 1 30); do echo line $i >&2; done; echo 'Error: no such directory' >&2; exit 1"),
                Map.of(), Optional.empty(), heard);

        String exit = heard.exit.get(60, TimeUnit.SECONDS);
        transport.close();

        assertThat(transport.exitReported().get(60, TimeUnit.SECONDS)).isTrue();
        StringBuilder expected = new StringBuilder("1 [");
        for (int i = 12; i <= 30; i++) {
            expected.append("line ").append(i).append(", ");
        }
        assertThat(exit).isEqualTo(expected + "Error: no such directory]");
        assertThat(heard.lines).hasSize(31);
    }

    @Test
    void aChildThatExitsBeforeAnythingIsReadStillReportsItsExit() throws Exception {
        Heard heard = new Heard();
        ProcessTransport.launch(List.of("sh", "-c", "exit 7"), Map.of(), Optional.empty(), heard);

        assertThat(heard.exit.get(60, TimeUnit.SECONDS)).isEqualTo("7 []");
    }

    @Test
    void aChildStoppedByClosingReportsNoExit() throws Exception {
        Heard heard = new Heard();
        ProcessTransport transport = ProcessTransport.launch(List.of("sh", "-c", "echo ready >&2; exec cat"),
                Map.of(), Optional.empty(), heard);
        heard.firstLine.await(60, TimeUnit.SECONDS); // the child is running: its shell wrote "ready"

        transport.close();

        assertThat(transport.exitReported().get(60, TimeUnit.SECONDS)).isFalse();
        assertThat(heard.exit).isNotDone();
    }

    @Test
    void theExitCodeCanBeAwaitedOnceTheChildsOutputEnded() {
        ProcessTransport transport = ProcessTransport.launch(List.of("sh", "-c", "exec 1>&-; sleep 0.1; exit 4"),
                Map.of(), Optional.empty(), line -> { });

        assertThat(transport.exitCode(java.time.Duration.ofSeconds(30))).contains(4);
    }
}
