package dev.warden.core.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.warden.core.error.ConnectionClosedException;
import dev.warden.core.error.RequestTimeoutException;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** What a flooding or misbehaving peer can make a session hold, and that it keeps answering. */
class SessionBoundsTest {

    private Session session;
    private RawPeer peer;

    private void start(Session.Builder builder) {
        session = builder.build();
        session.start();
    }

    private Session.Builder builder() {
        InMemoryTransport.Pair pair = InMemoryTransport.pair();
        peer = new RawPeer(pair.right());
        return Session.builder(pair.left());
    }

    @AfterEach
    void close() {
        if (session != null) {
            session.close();
        }
    }

    @Test
    void aNotificationFloodBeyondTheBoundIsDroppedAndCountedAndTheSessionStillAnswers() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        start(builder().maxQueuedNotifications(16).onNotification("notifications/message", (method, params) -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        String log = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\","
                + "\"data\":\"" + "y".repeat(1000) + "\"}}";
        for (int i = 0; i < 20_000; i++) {
            peer.send(log);
        }
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");

        JsonNode answer = peer.next();

        assertThat(answer.get("id").asInt()).isEqualTo(1);
        assertThat(session.notificationsQueued()).isLessThanOrEqualTo(16);
        // one is running in the handler, sixteen wait; the rest were dropped
        assertThat(session.notificationsDropped()).isGreaterThanOrEqualTo(20_000 - 17);
        release.countDown();
    }

    @Test
    void anErrorOnTheReaderClosesTheSessionAndFailsWhatIsPending() throws Exception {
        start(builder());
        OutgoingRequest failing = session.request("work", Json.object(), RequestOptions.ofDefaults()
                .withProgress(progress -> {
                    throw new OutOfMemoryError("simulated: the reader ran out of memory");
                }));
        OutgoingRequest other = session.request("other", Json.object());
        JsonNode sent = peer.next();
        peer.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":"
                + sent.get("params").get("_meta").get("progressToken") + ",\"progress\":1}}");

        Throwable failure = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> catchThrowable(() -> other.get()));

        assertThat(failure).isInstanceOf(ExecutionException.class).hasCauseInstanceOf(ConnectionClosedException.class);
        assertThat(failing).isCompletedExceptionally();
        assertThat(session.isClosed()).isTrue();
    }

    @Test
    void progressResetsTheTimeoutButNotPastTheDefaultMaximumTotal() throws Exception {
        AtomicLong now = new AtomicLong();
        Deadlines deadlines = Deadlines.manual(now::get);
        start(builder().deadlines(deadlines));
        Semaphore heard = new Semaphore(0);
        OutgoingRequest request = session.request("forever", Json.object(), RequestOptions.ofDefaults()
                .withTimeout(Duration.ofMinutes(1)).withResetTimeoutOnProgress(true)
                .withProgress(progress -> heard.release()));
        JsonNode token = peer.next().get("params").get("_meta").get("progressToken");
        for (int i = 1; i <= 20; i++) {
            now.addAndGet(Duration.ofSeconds(50).toNanos());
            deadlines.fireDue();
            if (request.isDone()) {
                break;
            }
            peer.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":"
                    + token + ",\"progress\":" + i + "}}");
            assertThat(heard.tryAcquire(20, TimeUnit.SECONDS)).as("progress %d handled", i).isTrue();
        }

        Throwable failure = catchThrowable(() -> request.get(20, TimeUnit.SECONDS));

        assertThat(failure).isInstanceOf(ExecutionException.class).cause()
                .isInstanceOf(RequestTimeoutException.class).hasMessageContaining("maximum total");
        assertThat(Duration.ofNanos(now.get())).isLessThanOrEqualTo(RequestOptions.DEFAULT_MAX_TOTAL_TIMEOUT
                .plusSeconds(50));
    }

    @Test
    void requestsFromThePeerBeyondTheBoundAreRefusedAtOnceAndTheOthersStillAnswered() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(2);
        start(builder().maxConcurrentRequests(2).onRequest("sampling/createMessage", ctx -> {
            running.countDown();
            release.await();
            return Json.object();
        }));
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"sampling/createMessage\"}");
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"sampling/createMessage\"}");
        assertThat(running.await(20, TimeUnit.SECONDS)).isTrue();
        assertThat(session.inFlightCount()).isEqualTo(2);
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"sampling/createMessage\"}");

        JsonNode refused = peer.next();

        assertThat(refused.get("id").asInt()).isEqualTo(3);
        assertThat(refused.get("error").get("code").asInt()).isEqualTo(-32603);
        assertThat(refused.get("error").get("data").get("code").asString()).isEqualTo("RATE_LIMITED");
        assertThat(session.requestsRefused()).isEqualTo(1);
        release.countDown();
        assertThat(java.util.List.of(peer.next().get("id").asInt(), peer.next().get("id").asInt()))
                .containsExactlyInAnyOrder(1, 2);
    }

    @Test
    void aTimeoutRecordsAnIncidentWithoutAStackTrace() throws Exception {
        java.util.List<dev.warden.core.incident.Incident> incidents = new java.util.concurrent.CopyOnWriteArrayList<>();
        start(builder().boundary(dev.warden.core.incident.ErrorBoundary.builder().incidents(incidents::add).build())
                .onRequest("roots/list", ctx -> {
                    // relays the question to a peer that never answers, as a gateway does for its upstream
                    OutgoingRequest relayed = ctx.session().request("ask", Json.object(),
                            RequestOptions.ofDefaults().withTimeout(Duration.ofMillis(50)));
                    try {
                        return relayed.get();
                    } catch (ExecutionException e) {
                        throw (RuntimeException) e.getCause();
                    }
                }));
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"roots/list\"}");

        peer.next(); // the relayed question, left unanswered
        JsonNode answer = peer.next();
        while (answer.get("id") == null || answer.get("id").asInt() != 7) {
            answer = peer.next(); // the cancellation of the relayed question
        }

        assertThat(answer.has("error")).isTrue();
        assertThat(incidents).singleElement().satisfies(incident -> assertThat(incident.chain())
                .allSatisfy(t -> assertThat(t.stack()).isEmpty()));
    }
}
