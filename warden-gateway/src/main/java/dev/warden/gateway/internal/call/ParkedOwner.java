package dev.warden.gateway.internal.call;

import dev.warden.core.cluster.ReplicaBus;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ErrorRenderer;
import dev.warden.core.error.FailureContext;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Cancellation;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import dev.warden.gateway.internal.parked.ParkedTokens;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The replica that holds a parked call, serving a round of it that reached another replica
 * ({@link ParkedForwarding}) as if it had arrived here from the same client ({@link
 * ForwardedClient}); the answer frame goes back as rendered here. The bus proves nothing, so only
 * the next round of a call parked here is served, its caller checked as for a direct round; it
 * counts among the calls in flight, so a drain waits for it.
 */
final class ParkedOwner {

    private record Serving(InMemoryTransport client, RequestId request) {
    }

    /** Methods a call may be parked in: the only ones an asking replica forwards ({@link ParkedForwarding}). */
    private static final java.util.Set<String> PARKABLE = java.util.Set.of("tools/call", "prompts/get",
            "resources/read");
    private static final String DRAINING = "Service unavailable: this server is shutting down; retry the request";

    private final ReplicaBus bus;
    private final Consumer<Transport> connect;
    private final Duration longest;
    private final Predicate<String> held;
    private final dev.warden.gateway.health.Lifecycle lifecycle;
    private final ErrorBoundary boundary;
    /** Rounds being served, by the asker's forward id: what a cancellation names. */
    private final Map<String, Serving> serving = new ConcurrentHashMap<>();

    /**
     * @param connect serves one client connection on this gateway
     * @param longest how long a round may take here at most (the asker gives up sooner)
     * @param held whether a call is parked here under a request state (looked up, not taken)
     * @param lifecycle the gateway's calls in flight, which a round served here joins
     * @param boundary where a refused round is recorded, and how its refusal is rendered
     */
    ParkedOwner(ReplicaBus bus, Consumer<Transport> connect, Duration longest, Predicate<String> held,
            dev.warden.gateway.health.Lifecycle lifecycle, ErrorBoundary boundary) {
        this.bus = bus;
        this.connect = connect;
        this.longest = longest;
        this.held = held;
        this.lifecycle = lifecycle;
        this.boundary = boundary;
    }

    /** The answer frame to the round in {@code body}; throws when there is none (the asker says so retryably). */
    String answer(String body) throws Exception {
        ForwardedRound round = ForwardedRound.read(body);
        RequestId id = JsonRpcCodec.decode(Json.write(round.request())) instanceof dev.warden.core.jsonrpc.Decoded.Message(
                dev.warden.core.jsonrpc.JsonRpcMessage.Request request) ? request.id() : null;
        if (id == null) {
            throw new IllegalArgumentException("a forwarded round is a request");
        }
        String method = round.request().path("method").asString("");
        Optional<ProtocolException> refused = refusal(method, round.request().path("params"));
        if (refused.isPresent()) {
            return refuse(id, method, refused.get(), "forwarded round from " + round.from() + " refused: "
                    + refused.get().getMessage());
        }
        if (!lifecycle.enter()) {
            return refuse(id, method, new ProtocolException(JsonRpcError.INTERNAL_ERROR, DRAINING,
                    ErrorCode.RATE_LIMITED), "forwarded round refused: draining");
        }
        try {
            return serve(round, id);
        } finally {
            lifecycle.exit();
        }
    }

    /**
     * Why this round is not served here: it is not a parkable method, or its request state names
     * no call parked here (a fresh call, another replica's, an unknown or finished one). Only the
     * asking side's forwarding sends rounds, and it sends only those; anything else on the topic
     * is not to be run, whoever it says it comes from.
     */
    private Optional<ProtocolException> refusal(String method, JsonNode params) {
        if (!PARKABLE.contains(method)) {
            return Optional.of(ProtocolException.invalidRequest(
                    "Invalid request: only a parked call's next round is answered for another replica"));
        }
        String state = params.path("requestState").asString("");
        if (!ParkedTokens.owner(state).equals(Optional.of(bus.self())) || !held.test(state)) {
            return Optional.of(ProtocolException.invalidParams(
                    "Invalid params: the requestState is unknown, expired or for another request"));
        }
        return Optional.empty();
    }

    /** The refusal's frame, recorded here with why (for the operator), as the asker passes it on. */
    private String refuse(RequestId id, String method, ProtocolException e, String why) {
        return JsonRpcCodec.encode(new JsonRpcMessage.Failure(Optional.of(id),
                ErrorRenderer.rpcError(e, boundary.refusal(e, FailureContext.of(method.isBlank() ? "(forwarded)"
                        : method), why))));
    }

    private String serve(ForwardedRound round, RequestId id) throws Exception {
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
