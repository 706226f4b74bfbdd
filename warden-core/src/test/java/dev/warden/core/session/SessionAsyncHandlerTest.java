package dev.warden.core.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Handlers that answer later without a thread of their own ({@link AsyncRequestHandler}). */
class SessionAsyncHandlerTest {

    /** Each key's pending answer, completed by the handler when the request reaches it; the test waits on it. */
    private final Map<String, CompletableFuture<CompletableFuture<JsonNode>>> open = new ConcurrentHashMap<>();
    private final AtomicReference<Thread> ranOn = new AtomicReference<>();
    private final CountDownLatch cancelled = new CountDownLatch(1);
    private Session session;
    private RawPeer peer;

    private void start() {
        InMemoryTransport.Pair pair = InMemoryTransport.pair();
        peer = new RawPeer(pair.right());
        session = Session.builder(pair.left())
                .boundary(ErrorBoundary.builder().incidents(i -> { }).build())
                .onRequest("later", ctx -> Json.object().put("by", "thread"))
                .onRequestAsync("later", ctx -> {
                    ranOn.set(Thread.currentThread());
                    String key = ctx.params().map(p -> p.path("key").asString("")).orElse("");
                    if (key.equals("slow path")) {
                        return Optional.empty();
                    }
                    if (key.equals("throws")) {
                        throw ProtocolException.invalidParams("Invalid params: no");
                    }
                    CompletableFuture<JsonNode> answer = new CompletableFuture<>();
                    ctx.onCancel(() -> {
                        answer.cancel(false);
                        cancelled.countDown();
                    });
                    reached(key).complete(answer);
                    return Optional.of(answer);
                })
                .build();
        session.start();
    }

    @AfterEach
    void close() {
        if (session != null) {
            session.close();
        }
    }

    private CompletableFuture<CompletableFuture<JsonNode>> reached(String key) {
        return open.computeIfAbsent(key, k -> new CompletableFuture<>());
    }

    private CompletableFuture<JsonNode> waitingFor(String key) throws Exception {
        return reached(key).get(10, TimeUnit.SECONDS);
    }

    @Test
    void theAnswerGoesOutWhenTheStageCompletesAndOthersAreNotHeldUp() throws Exception {
        start();
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"later\",\"params\":{\"key\":\"a\"}}");
        CompletableFuture<JsonNode> a = waitingFor("a");
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"later\",\"params\":{\"key\":\"b\"}}");
        waitingFor("b").complete(Json.object().put("v", "b"));
        JsonNode first = peer.next();
        assertThat(first.get("id").asInt()).isEqualTo(2);
        assertThat(first.at("/result/v").asString()).isEqualTo("b");
        a.complete(Json.object().put("v", "a"));
        assertThat(peer.next().at("/result/v").asString()).isEqualTo("a");
        assertThat(ranOn.get().getName()).as("the handler ran on the reading thread, not one of its own")
                .isNotEqualTo("warden-handler");
    }

    @Test
    void failuresAreAnsweredAsAHandlersExceptionsAre() throws Exception {
        start();
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"later\",\"params\":{\"key\":\"throws\"}}");
        JsonNode refused = peer.next();
        assertThat(refused.at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(refused.at("/error/message").asString()).isEqualTo("Invalid params: no");
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"later\",\"params\":{\"key\":\"c\"}}");
        waitingFor("c").completeExceptionally(new IllegalStateException("jdbc:postgresql://10.0.0.5/prod"));
        String raw = peer.nextRaw();
        assertThat(raw).contains("\"code\":-32603").doesNotContain("postgresql").doesNotContain("10.0.0.5");
    }

    @Test
    void emptyHandsTheRequestToTheOrdinaryHandler() throws Exception {
        start();
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"later\",\"params\":{\"key\":\"slow path\"}}");
        assertThat(peer.next().at("/result/by").asString()).isEqualTo("thread");
    }

    @Test
    void cancellationReachesTheHandlerAndNoAnswerIsSent() throws Exception {
        start();
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"later\",\"params\":{\"key\":\"d\"}}");
        CompletableFuture<JsonNode> d = waitingFor("d");
        peer.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":7}}");
        assertThat(cancelled.await(20, TimeUnit.SECONDS)).isTrue();
        assertThat(d).isCancelled();
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}");
        assertThat(peer.next().get("id").asInt()).as("nothing for the cancelled request").isEqualTo(8);
    }
}
