package dev.warden.core.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.transport.InMemoryTransport;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The observer sees each message from the peer, the handler's work inside it, and the answer as it
 * went out; a request of ours goes out as the observer would have it and the observer hears how it
 * ended before the caller does. An observer that throws changes no answer.
 */
class SessionObserverTest {

    private final List<String> seen = new CopyOnWriteArrayList<>();
    private final ThreadLocal<String> inside = new ThreadLocal<>();
    private final InMemoryTransport.Pair pair = InMemoryTransport.pair();
    private final RawPeer peer = new RawPeer(pair.left());
    private Session session;

    @AfterEach
    void close() {
        session.close();
        peer.close();
    }

    private final SessionObserver recording = new SessionObserver() {
        @Override
        public Incoming received(JsonRpcMessage message) {
            String method = message instanceof JsonRpcMessage.Request r ? r.method()
                    : ((JsonRpcMessage.Notification) message).method();
            seen.add("received " + method);
            return new Incoming() {
                @Override
                public <T> T during(Callable<T> work) throws Exception {
                    inside.set(method);
                    try {
                        return work.call();
                    } finally {
                        inside.remove();
                    }
                }

                @Override
                public void ended(Optional<JsonRpcMessage.Response> answer) {
                    seen.add("ended " + method + " " + answer.map(a -> a instanceof JsonRpcMessage.Failure f
                            ? "error " + f.error().code() : "result").orElse("none"));
                }
            };
        }

        @Override
        public Outgoing sending(JsonRpcMessage.Request request) {
            JsonRpcMessage.Request stamped = new JsonRpcMessage.Request(request.id(), request.method(),
                    Json.object().put("stamped", true));
            return new Outgoing(stamped, new Ended() {
                @Override
                public void answered(tools.jackson.databind.JsonNode result) {
                    seen.add("answered " + request.method());
                }

                @Override
                public void failed(Throwable failure) {
                    seen.add("answered " + request.method());
                }
            });
        }
    };

    @Test
    void theObserverSeesEachMessageTheHandlersWorkAndTheAnswerAsSent() throws Exception {
        java.util.concurrent.CompletableFuture<String> noteHandled = new java.util.concurrent.CompletableFuture<>();
        session = Session.builder(pair.right()).observer(recording)
                .onRequest("echo", ctx -> Json.object().put("inside", inside.get()))
                .onNotification("note", (method, params) -> noteHandled.complete(inside.get()))
                .build();
        session.start();

        peer.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\"}");
        assertThat(peer.next().path("result").path("inside").asString()).isEqualTo("echo");
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"absent\"}");
        assertThat(peer.next().path("error").path("code").asInt()).isEqualTo(-32601);
        peer.send("{\"jsonrpc\":\"2.0\",\"method\":\"note\"}");
        assertThat(noteHandled.get(20, TimeUnit.SECONDS)).as("the notification's handler runs within it").isEqualTo("note");
        session.notificationsHandled().get(20, TimeUnit.SECONDS);
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
        peer.next();

        assertThat(seen).containsSubsequence("received echo", "ended echo result", "received absent",
                "ended absent error -32601", "received note", "ended note none", "received ping", "ended ping result");
    }

    @Test
    void ourNotificationGoesOutAsTheObserverHasIt() throws Exception {
        session = Session.builder(pair.right()).observer(new SessionObserver() {
            @Override
            public JsonRpcMessage.Notification notifying(JsonRpcMessage.Notification notification) {
                return new JsonRpcMessage.Notification(notification.method(), Json.object().put("stamped", true));
            }
        }).build();
        session.start();

        session.notify("notifications/message", Json.object());
        assertThat(peer.next().path("params").path("stamped").asBoolean()).isTrue();
    }

    @Test
    void ourRequestGoesOutAsTheObserverHasItAndItsEndIsHeardFirst() throws Exception {
        session = Session.builder(pair.right()).observer(recording).build();
        session.start();

        OutgoingRequest request = session.request("sample", Json.object());
        JsonNode sent = peer.next();
        assertThat(sent.path("params").path("stamped").asBoolean()).isTrue();
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":" + sent.path("id").asInt() + ",\"result\":{}}");
        request.get(20, TimeUnit.SECONDS);

        assertThat(seen).contains("answered sample");
    }

    @Test
    void anObserverThatThrowsChangesNoAnswer() throws Exception {
        session = Session.builder(pair.right()).observer(new SessionObserver() {
            @Override
            public Incoming received(JsonRpcMessage message) {
                throw new IllegalStateException("observer bug");
            }
        }).onRequest("echo", ctx -> Json.object().put("ok", true)).build();
        session.start();

        peer.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\"}");
        assertThat(peer.next().path("result").path("ok").asBoolean()).isTrue();
    }
}
