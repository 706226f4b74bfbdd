package dev.warden.core.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.transport.InMemoryTransport;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The observer hears how each request ended exactly as it ended: from the completion that won,
 * from a timeout however short, and as the session's closing when that is why no answer went.
 */
class ObservedEndingsTest {

    private final List<String> told = new CopyOnWriteArrayList<>();

    private SessionObserver.Ended telling(Runnable afterAnswered) {
        return new SessionObserver.Ended() {
            @Override
            public void answered(JsonNode result) {
                told.add("answered");
                afterAnswered.run();
            }

            @Override
            public void failed(Throwable failure) {
                told.add("failed " + failure.getClass().getSimpleName());
            }
        };
    }

    @Test
    void onlyTheCompletionThatWonIsTold() throws Exception {
        OutgoingRequest future = new OutgoingRequest(RequestId.of(1), null);
        CountDownLatch answeredTold = new CountDownLatch(1);
        CountDownLatch lateOneTried = new CountDownLatch(1);
        future.observe(telling(() -> {
            answeredTold.countDown();
            try {
                lateOneTried.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        Thread answering = Thread.ofVirtual().start(() -> future.complete(Json.object()));
        answeredTold.await(20, TimeUnit.SECONDS);
        boolean lateWon = future.completeExceptionally(new IllegalStateException("late"));
        lateOneTried.countDown();
        answering.join();

        assertThat(lateWon).isFalse();
        assertThat(told).containsExactly("answered");
        assertThat(future.isCompletedExceptionally()).isFalse();
    }

    @Test
    void aTimeoutFiringAsTheRequestIsSentIsStillTold() throws Exception {
        AtomicLong now = new AtomicLong();
        Deadlines deadlines = Deadlines.manual(now::get);
        InMemoryTransport.Pair pair = InMemoryTransport.pair();
        RawPeer peer = new RawPeer(pair.left());
        Session session = Session.builder(pair.right()).deadlines(deadlines).observer(new SessionObserver() {
            @Override
            public Outgoing sending(JsonRpcMessage.Request request) {
                // The timer fires while the observer is still being attached.
                now.addAndGet(Duration.ofSeconds(1).toNanos());
                deadlines.fireDue();
                return new Outgoing(request, telling(() -> { }));
            }
        }).build();
        try {
            session.start();
            OutgoingRequest request = session.request("slow", Json.object(),
                    RequestOptions.ofDefaults().withTimeout(Duration.ofMillis(1)));
            now.addAndGet(Duration.ofSeconds(1).toNanos());
            deadlines.fireDue();
            assertThat(request.isCompletedExceptionally()).isTrue();
            assertThat(told).containsExactly("failed RequestTimeoutException");
        } finally {
            session.close();
            peer.close();
        }
    }

    @Test
    void aRequestLeftUnansweredByTheSessionClosingIsToldSo() throws Exception {
        InMemoryTransport.Pair pair = InMemoryTransport.pair();
        RawPeer peer = new RawPeer(pair.left());
        CountDownLatch handling = new CountDownLatch(1);
        CountDownLatch ended = new CountDownLatch(1);
        Session session = Session.builder(pair.right()).observer(new SessionObserver() {
            @Override
            public Incoming received(JsonRpcMessage message) {
                return new Incoming() {
                    @Override
                    public <T> T during(Callable<T> work) throws Exception {
                        return work.call();
                    }

                    @Override
                    public void ended(Optional<JsonRpcMessage.Response> answer) {
                        told.add("ended " + answer.map(a -> "answered").orElse("unanswered"));
                        ended.countDown();
                    }

                    @Override
                    public void closed() {
                        told.add("closed");
                        ended.countDown();
                    }
                };
            }
        }).onRequest("block", ctx -> {
            handling.countDown();
            new CountDownLatch(1).await();
            return Json.object();
        }).build();
        try {
            session.start();
            peer.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"block\"}");
            assertThat(handling.await(20, TimeUnit.SECONDS)).isTrue();
            session.close();
            assertThat(ended.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(told.getFirst()).isEqualTo("closed");
        } finally {
            peer.close();
        }
    }
}
