package dev.warden.gateway.internal;

import dev.warden.core.cluster.ReplicaBus;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Cancellation;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The replica that holds a parked call, answering a round of it that reached another replica
 * ({@link ParkedForwarding}): the round is served by this gateway as if it had arrived here, on a
 * connection of its own from the same client ({@link ForwardedClient}), and its answer frame (the
 * result, the next input-required result, or the error) goes back as it was rendered here. The
 * round's progress goes to the asking replica as it comes; its other notifications (log
 * messages) are not carried.
 */
final class ParkedOwner {

    private record Serving(InMemoryTransport client, RequestId request) {
    }

    private final ReplicaBus bus;
    private final Consumer<Transport> connect;
    private final Duration longest;
    /** Rounds being served, by the asker's forward id: what a cancellation names. */
    private final Map<String, Serving> serving = new ConcurrentHashMap<>();

    /**
     * @param connect serves one client connection on this gateway
     * @param longest how long a round may take here at most (the asker gives up sooner)
     */
    ParkedOwner(ReplicaBus bus, Consumer<Transport> connect, Duration longest) {
        this.bus = bus;
        this.connect = connect;
        this.longest = longest;
    }

    /** The answer frame to the round in {@code body}; throws when there is none (the asker says so retryably). */
    String answer(String body) throws Exception {
        ForwardedRound round = ForwardedRound.read(body);
        RequestId id = JsonRpcCodec.decode(Json.write(round.request())) instanceof dev.warden.core.jsonrpc.Decoded.Message(
                dev.warden.core.jsonrpc.JsonRpcMessage.Request request) ? request.id() : null;
        if (id == null) {
            throw new IllegalArgumentException("a forwarded round is a request");
        }
        InMemoryTransport.Pair pair = InMemoryTransport.pair();
        CompletableFuture<String> answer = new CompletableFuture<>();
        pair.left().start(new Transport.Listener() {
            @Override
            public void onFrame(byte[] frame) {
                String text = new String(frame, StandardCharsets.UTF_8);
                JsonNode message = Json.mapper().readTree(text);
                if (message.has("id") && (message.has("result") || message.has("error"))) {
                    answer.complete(text);
                } else if ("notifications/progress".equals(message.path("method").asString(""))
                        && message.get("params") instanceof ObjectNode params) {
                    ObjectNode progress = Json.object().put("f", round.forward());
                    progress.set("params", params);
                    bus.send(round.from(), ParkedForwarding.PROGRESS, Json.write(progress));
                }
            }

            @Override
            public void onFrameError(dev.warden.core.error.ProtocolException error) {
            }

            @Override
            public void onClose() {
                answer.completeExceptionally(new IllegalStateException("the round's connection closed unanswered"));
            }
        });
        connect.accept(new ForwardedClient(pair.right(), round.address(), round.caller()));
        serving.put(round.forward(), new Serving(pair.left(), id));
        try {
            pair.left().send(Json.write(round.request()));
            return answer.get(longest.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the round got no answer here", e);
        } finally {
            serving.remove(round.forward());
            pair.left().close();
        }
    }

    /** The client gave up on a round it sent elsewhere: cancelled here as if it had cancelled here. */
    void cancel(String body) {
        String forward = Json.mapper().readTree(body).path("f").asString("");
        Serving round = serving.get(forward);
        if (round != null) {
            try {
                round.client().send(Cancellation.frame(round.request(), "Cancelled by the client"));
            } catch (RuntimeException e) {
                // already answered and closed: nothing left to cancel
            }
        }
    }
}
