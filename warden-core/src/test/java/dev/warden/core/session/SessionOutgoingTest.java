package dev.warden.core.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.warden.core.error.ConnectionClosedException;
import dev.warden.core.error.LocalFailure;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.error.RequestCancelledException;
import dev.warden.core.error.RequestTimeoutException;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Progress;
import dev.warden.core.transport.InMemoryTransport;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Requests the session sends. The peer is played by the test, so every answer (or silence) is
 * deliberate, and the requests' timeouts run on a clock the test moves: a timeout fires when the
 * test says it is due, never because the machine was slow. Waits on futures are hang guards only.
 */
class SessionOutgoingTest {

    private final AtomicLong now = new AtomicLong();
    private final Deadlines deadlines = Deadlines.manual(now::get);
    private Session session;
    private RawPeer peer;

    @BeforeEach
    void start() {
        InMemoryTransport.Pair pair = InMemoryTransport.pair();
        peer = new RawPeer(pair.right());
        session = Session.builder(pair.left()).deadlines(deadlines).build();
        session.start();
    }

    /** Moves the clock and fires the timeouts that are then due. */
    private void advance(Duration by) {
        now.addAndGet(by.toNanos());
        deadlines.fireDue();
    }

    private void progress(JsonNode token, int progress) {
        peer.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":"
                + token + ",\"progress\":" + progress + "}}");
    }

    @AfterEach
    void close() {
        session.close();
    }

    private static Throwable failureOf(OutgoingRequest request) {
        Throwable thrown = catchThrowable(() -> request.get(30, TimeUnit.SECONDS));
        assertThat(thrown).isInstanceOf(ExecutionException.class);
        return thrown.getCause();
    }

    @Test
    void theAnswerIsMatchedToTheRequestById() throws Exception {
        OutgoingRequest first = session.request("a", Json.object());
        OutgoingRequest second = session.request("b", Json.object());
        JsonNode sentFirst = peer.next();
        JsonNode sentSecond = peer.next();
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":" + sentSecond.get("id") + ",\"result\":{\"who\":\"b\"}}");
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":" + sentFirst.get("id") + ",\"result\":{\"who\":\"a\"}}");
        assertThat(first.get(30, TimeUnit.SECONDS).get("who").stringValue()).isEqualTo("a");
        assertThat(second.get(30, TimeUnit.SECONDS).get("who").stringValue()).isEqualTo("b");
    }

    @Test
    void aPeerErrorIsAPeerErrorExceptionNotALocalFailure() throws Exception {
        OutgoingRequest request = session.request("a", Json.object());
        JsonNode sent = peer.next();
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":" + sent.get("id") + ",\"error\":{\"code\":-32001,"
                + "\"message\":\"Request timed out\"}}");
        Throwable failure = failureOf(request);
        assertThat(failure).isInstanceOf(PeerErrorException.class).isNotInstanceOf(LocalFailure.class);
        assertThat(((PeerErrorException) failure).error().code()).isEqualTo(-32001);
        assertThat(failure.getMessage()).doesNotContain("Request timed out");
    }

    @Test
    void noAnswerInTimeIsALocalTimeoutAndTheRequestIsCancelledAtThePeer() throws Exception {
        OutgoingRequest request = session.request("slow", Json.object(),
                RequestOptions.ofDefaults().withTimeout(Duration.ofMillis(200)));
        JsonNode sent = peer.next();
        advance(Duration.ofMillis(199));
        assertThat(request).isNotDone();
        advance(Duration.ofMillis(1));
        assertThat(failureOf(request)).isInstanceOf(RequestTimeoutException.class);
        JsonNode cancel = peer.next();
        assertThat(cancel.get("method").stringValue()).isEqualTo("notifications/cancelled");
        assertThat(cancel.get("params").get("requestId")).isEqualTo(sent.get("id"));
        assertThat(session.pendingCount()).isZero();
    }

    @Test
    void aLateAnswerAfterTimeoutIsDropped() throws Exception {
        OutgoingRequest request = session.request("slow", Json.object(),
                RequestOptions.ofDefaults().withTimeout(Duration.ofMillis(100)));
        JsonNode sent = peer.next();
        advance(Duration.ofMillis(100));
        assertThat(failureOf(request)).isInstanceOf(RequestTimeoutException.class);
        assertThat(peer.next().get("method").stringValue()).isEqualTo("notifications/cancelled");
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":" + sent.get("id") + ",\"result\":{\"late\":true}}");
        OutgoingRequest next = session.request("b", Json.object());
        JsonNode sentNext = peer.next();
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":" + sentNext.get("id") + ",\"result\":{\"ok\":true}}");
        assertThat(next.get(30, TimeUnit.SECONDS).get("ok").asBoolean()).isTrue();
        assertThat(failureOf(request)).isInstanceOf(RequestTimeoutException.class);
    }

    @Test
    void progressResetsTheIdleTimeout() throws Exception {
        List<Progress.Params> seen = new CopyOnWriteArrayList<>();
        Semaphore heard = new Semaphore(0);
        OutgoingRequest request = session.request("long", Json.object(), RequestOptions.ofDefaults()
                .withTimeout(Duration.ofMillis(1500))
                .withResetTimeoutOnProgress(true)
                .withProgress(p -> {
                    seen.add(p);
                    heard.release();
                }));
        JsonNode sent = peer.next();
        JsonNode token = sent.get("params").get("_meta").get("progressToken");
        assertThat(token).isNotNull();
        // Three idle periods in total, but never one without progress.
        for (int i = 1; i <= 6; i++) {
            advance(Duration.ofMillis(500));
            progress(token, i);
            // The listener runs after the timeout is re-armed: once it has, the next step may move the clock.
            assertThat(heard.tryAcquire(30, TimeUnit.SECONDS)).as("progress %d handled", i).isTrue();
        }
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":" + sent.get("id") + ",\"result\":{\"done\":true}}");
        assertThat(request.get(30, TimeUnit.SECONDS).get("done").asBoolean()).isTrue();
        assertThat(seen).hasSize(6);
    }

    @Test
    void theMaximumTotalTimeoutHoldsDespiteProgress() throws Exception {
        Semaphore heard = new Semaphore(0);
        OutgoingRequest request = session.request("forever", Json.object(), RequestOptions.ofDefaults()
                .withTimeout(Duration.ofSeconds(30))
                .withMaxTotalTimeout(Duration.ofMillis(600))
                .withResetTimeoutOnProgress(true)
                .withProgress(p -> heard.release()));
        JsonNode sent = peer.next();
        JsonNode token = sent.get("params").get("_meta").get("progressToken");
        for (int i = 1; i < 200 && !request.isDone(); i++) {
            progress(token, i);
            assertThat(heard.tryAcquire(30, TimeUnit.SECONDS)).as("progress %d handled", i).isTrue();
            advance(Duration.ofMillis(50));
        }
        Throwable failure = failureOf(request);
        assertThat(failure).isInstanceOf(RequestTimeoutException.class);
        assertThat(failure.getMessage()).contains("maximum total timeout");
    }

    @Test
    void cancellingSendsCancelledAndFailsLocally() throws Exception {
        OutgoingRequest request = session.request("a", Json.object());
        JsonNode sent = peer.next();
        assertThat(request.cancel("The user closed the dialog")).isTrue();
        assertThat(failureOf(request)).isInstanceOf(RequestCancelledException.class);
        JsonNode cancel = peer.next();
        assertThat(cancel.get("method").stringValue()).isEqualTo("notifications/cancelled");
        assertThat(cancel.get("params").get("requestId")).isEqualTo(sent.get("id"));
        assertThat(cancel.get("params").get("reason").stringValue()).isEqualTo("The user closed the dialog");
    }

    @Test
    void futureCancelAlsoSendsCancelled() throws Exception {
        OutgoingRequest request = session.request("a", Json.object());
        peer.next();
        request.cancel(true);
        assertThat(peer.next().get("method").stringValue()).isEqualTo("notifications/cancelled");
        assertThat(failureOf(request)).isInstanceOf(RequestCancelledException.class);
    }

    @Test
    void closingTheTransportFailsEveryPendingRequest() throws Exception {
        OutgoingRequest a = session.request("a", Json.object());
        OutgoingRequest b = session.request("b", Json.object());
        peer.next();
        peer.next();
        peer.close();
        assertThat(failureOf(a)).isInstanceOf(ConnectionClosedException.class);
        assertThat(failureOf(b)).isInstanceOf(ConnectionClosedException.class);
        assertThat(failureOf(session.request("c", Json.object()))).isInstanceOf(ConnectionClosedException.class);
    }

    @Test
    void pingGetsAnEmptyResult() throws Exception {
        OutgoingRequest ping = session.ping(Duration.ofSeconds(30));
        JsonNode sent = peer.next();
        assertThat(sent.get("method").stringValue()).isEqualTo("ping");
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":" + sent.get("id") + ",\"result\":{}}");
        assertThat(ping.get(30, TimeUnit.SECONDS).isEmpty()).isTrue();
    }
}
