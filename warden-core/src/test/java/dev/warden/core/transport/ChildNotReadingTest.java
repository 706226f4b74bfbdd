package dev.warden.core.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.warden.core.error.RequestTimeoutException;
import dev.warden.core.json.Json;
import dev.warden.core.session.OutgoingRequest;
import dev.warden.core.session.RequestOptions;
import dev.warden.core.session.Session;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A real child that never reads its stdin ({@code sleep}): the pipe fills, and nothing written to it
 * may hold a caller past its own deadline. The 30 s bounds only bound a failure (a hang); each request's
 * short timeout is the behaviour under test, not a guess at speed.
 */
class ChildNotReadingTest {

    private static final int CALLS = 40;
    /** Far more than a pipe holds (64 KiB on Linux) once all calls are written. */
    private static final String PAYLOAD = "x".repeat(32 * 1024);

    private static ProcessTransport sleeper() {
        return ProcessTransport.launch(List.of("sleep", "1000"), Map.of(), Optional.empty(), line -> { });
    }

    @Test
    void everyConcurrentRequestToAChildThatNeverReadsGetsExactlyOneAnswer() {
        ProcessTransport transport = sleeper();
        Session session = Session.builder(transport).build();
        session.start();
        AtomicInteger answers = new AtomicInteger();
        List<CompletableFuture<Throwable>> outcomes = new ArrayList<>();
        for (int i = 0; i < CALLS; i++) {
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            outcomes.add(outcome);
            Thread.ofVirtual().start(() -> {
                OutgoingRequest request = session.request("tools/call", Json.object().put("payload", PAYLOAD),
                        RequestOptions.ofDefaults().withTimeout(Duration.ofMillis(300)));
                request.whenComplete((value, error) -> {
                    answers.incrementAndGet();
                    outcome.complete(error);
                });
            });
        }
        List<Throwable> failures = assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> outcomes.stream().map(CompletableFuture::join).toList());
        assertThat(failures).allSatisfy(f -> assertThat(f).isInstanceOf(RequestTimeoutException.class));
        assertThat(answers).hasValue(CALLS);
        assertTimeoutPreemptively(Duration.ofSeconds(30), session::close);
    }

    @Test
    void closingStopsAChildWhoseStdinIsFull() {
        ProcessTransport transport = sleeper();
        Session session = Session.builder(transport).build();
        session.start();
        for (int i = 0; i < CALLS; i++) {
            session.request("tools/call", Json.object().put("payload", PAYLOAD),
                    RequestOptions.ofDefaults().withTimeout(Duration.ofMinutes(5)));
        }
        long pid = transport.pid();

        assertTimeoutPreemptively(Duration.ofSeconds(30), session::close);

        assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).as("the child after close").isEmpty();
    }

    @Test
    void aRequestThatCannotBeQueuedBeforeItsDeadlineTimesOut() throws Exception {
        ProcessTransport transport = ProcessTransport.launch(List.of("sleep", "1000"), Map.of(), Optional.empty(),
                line -> { }, StdioTransport.DEFAULT_MAX_MESSAGE_BYTES,
                new OutgoingLimits(48 * 1024, Duration.ofSeconds(30)));
        try (Session session = Session.builder(transport).build()) {
            session.start();
            for (int i = 0; i < CALLS; i++) {
                // Callers of their own: once the queue is full, these wait for room (up to their deadline).
                Thread.ofVirtual().start(() -> session.request("tools/call", Json.object().put("payload", PAYLOAD),
                        RequestOptions.ofDefaults().withTimeout(Duration.ofMinutes(5))));
            }
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                while (transport.queuedBytes() < PAYLOAD.length()) {
                    // Until a frame waits: no second one fits beside it. A bounded poll, as the transport
                    // announces no queued frame (an event for this test alone would be API for a test).
                    Thread.sleep(5);
                }
            });
            OutgoingRequest late = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> session.request(
                    "tools/call", Json.object().put("payload", PAYLOAD), RequestOptions.ofDefaults().withTimeout(Duration.ofMillis(200))));
            Throwable failure = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                try {
                    late.get();
                    return null;
                } catch (ExecutionException e) {
                    return e.getCause();
                }
            });
            assertThat(failure).isInstanceOf(RequestTimeoutException.class);
        }
    }

    @Test
    void aNotificationThatCannotBeQueuedWithinTheWaitFailsWithoutClosingTheTransport() {
        ProcessTransport transport = ProcessTransport.launch(List.of("sleep", "1000"), Map.of(), Optional.empty(),
                line -> { }, StdioTransport.DEFAULT_MAX_MESSAGE_BYTES,
                new OutgoingLimits(64 * 1024, Duration.ofMillis(100)));
        transport.start(new Transport.Listener() {
            @Override
            public void onFrame(byte[] frame) {
            }

            @Override
            public void onFrameError(dev.warden.core.error.ProtocolException refusal) {
            }

            @Override
            public void onClose() {
            }
        });
        try {
            String frame = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\""
                    + PAYLOAD + "\"}}";
            Throwable refused = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                for (int i = 0; i < 1000; i++) {
                    try {
                        transport.send(frame);
                    } catch (SendTimeoutException e) {
                        return e;
                    }
                }
                return null;
            });
            assertThat(refused).isInstanceOf(SendTimeoutException.class);
            assertThat(transport.exitCode()).isEmpty();
        } finally {
            assertTimeoutPreemptively(Duration.ofSeconds(30), transport::close);
        }
    }
}
