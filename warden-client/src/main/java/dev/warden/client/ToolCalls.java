package dev.warden.client;

import dev.warden.core.error.IncompatiblePeerException;
import dev.warden.core.json.Json;
import dev.warden.core.session.InputRounds;
import dev.warden.core.session.RequestOptions;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A tool call, in as many rounds as the server asks for input (2026-07-28): each input request is
 * met with this client's handlers, on a virtual thread (a handler may wait for a person), and the
 * call is sent again with the answers and the server's requestState, as a new request.
 */
final class ToolCalls {

    /** The first request counts as a round: at most 16 requests in all. */
    private static final InputRounds ROUNDS = new InputRounds("server", InputRounds.MAX_INPUT_ROUNDS,
            "Cancelled by the caller");
    private static final Executor ANSWERING = task -> Thread.ofVirtual().name("warden-client-input").start(task);

    private final ClientConfig config;
    private final Reconnector connections;
    private final ToolCatalog catalog;

    ToolCalls(ClientConfig config, Reconnector connections, ToolCatalog catalog) {
        this.config = config;
        this.connections = connections;
        this.catalog = catalog;
    }

    /**
     * Sends the call now; cancelling the future ({@code cancel(true)}) cancels the round in flight,
     * which tells the server, and completes it with {@link java.util.concurrent.CancellationException}.
     */
    CompletableFuture<ToolCallResult> call(String name, ObjectNode arguments, RequestOptions options) {
        ObjectNode params = Json.object();
        params.put("name", name);
        params.set("arguments", arguments == null ? Json.object() : arguments);
        CompletableFuture<JsonNode> rounds = ROUNDS.run(params, p -> {
            Connection c = connections.live();
            return c.session().request("tools/call", c.stamp(p), options);
        }, this::answer, ANSWERING);
        CompletableFuture<ToolCallResult> result = new CompletableFuture<>() {
            @Override
            public boolean cancel(boolean mayInterruptIfRunning) {
                boolean cancelled = super.cancel(mayInterruptIfRunning);
                rounds.cancel(mayInterruptIfRunning);
                return cancelled;
            }
        };
        rounds.whenComplete((value, error) -> {
            if (error != null) {
                result.completeExceptionally(error);
                return;
            }
            try {
                result.complete(catalog.result(name, value));
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    /** Answers a server's input requests with this client's handlers; one it has no handler for is refused locally. */
    private ObjectNode answer(JsonNode inputRequests) throws Exception {
        ObjectNode answers = Json.object();
        if (!(inputRequests instanceof ObjectNode requests)) {
            throw new IncompatiblePeerException("The server asked for input without saying what");
        }
        for (Map.Entry<String, JsonNode> entry : requests.properties()) {
            String method = entry.getValue().path("method").asString("");
            ClientRequestHandler handler = config.handler(method).orElseThrow(() -> new IncompatiblePeerException(
                    "The server asked for input this client does not provide"));
            JsonNode p = entry.getValue().get("params");
            ObjectNode params = p instanceof ObjectNode o ? o : Json.object();
            ObjectNode answer = handler.handle(params);
            answers.set(entry.getKey(), "elicitation/create".equals(method)
                    ? Elicitation.withDefaults(params, answer) : answer);
        }
        return answers;
    }
}
