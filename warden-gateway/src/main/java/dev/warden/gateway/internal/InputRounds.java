package dev.warden.gateway.internal;

import dev.warden.client.McpClient;
import dev.warden.core.error.IncompatiblePeerException;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.session.OutgoingRequest;
import dev.warden.core.session.RequestOptions;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The input rounds of a stateless upstream (2026-07-28) serving a session-based client: the
 * upstream asks for input in its answer, the client is asked each question as the request it
 * stands for (as a session-based server would have asked it), and the request is sent again with
 * the answers, until the upstream answers for good.
 */
final class InputRounds {

    /** Rounds of input a stateless upstream may ask for in one request. */
    static final int MAX_INPUT_ROUNDS = 16;

    /** Puts one of the upstream's questions to the client, on the stream of the request being served. */
    @FunctionalInterface
    interface Client {
        ObjectNode ask(String method, ObjectNode params) throws Exception;
    }

    private final Client client;

    InputRounds(Client client) {
        this.client = client;
    }

    /**
     * The upstream's final answer to {@code sent}, given its first answer {@code result}. A round
     * beyond {@link #MAX_INPUT_ROUNDS}, or a question without a known kind, fails the request as
     * an {@link ExecutionException} of an {@link IncompatiblePeerException}; a refusal of the
     * client's fails it as that refusal.
     */
    JsonNode run(McpClient upstream, String method, ObjectNode sent, RequestOptions options, JsonNode result)
            throws Exception {
        for (int round = 1; StatelessRules.inputRequired(result); round++) {
            if (round > MAX_INPUT_ROUNDS) {
                throw new ExecutionException(new IncompatiblePeerException(
                        "The upstream asked for input more than " + MAX_INPUT_ROUNDS + " times"));
            }
            ObjectNode again = sent.deepCopy();
            again.set("inputResponses", answers(result.path("inputRequests")));
            again.remove("requestState");
            if (result.get("requestState") instanceof JsonNode state && state.isString()) {
                again.set("requestState", state);
            }
            OutgoingRequest out = upstream.requestAsync(method, again, options);
            try {
                result = out.get();
            } catch (InterruptedException e) {
                out.cancel("Cancelled by the client");
                throw e;
            }
        }
        return result;
    }

    /** Each input request put to the client as the request it stands for; a refusal fails the whole request. */
    private ObjectNode answers(JsonNode inputRequests) throws Exception {
        if (!(inputRequests instanceof ObjectNode requests) || requests.isEmpty()) {
            throw new ExecutionException(new IncompatiblePeerException("The upstream asked for input without saying what"));
        }
        ObjectNode answers = Json.object();
        for (Map.Entry<String, JsonNode> entry : requests.properties()) {
            String method = entry.getValue().path("method").asString("");
            if (Lifecycle.capabilityFor(method).isEmpty()) {
                throw new ExecutionException(new IncompatiblePeerException("The upstream asked for input of an unknown kind"));
            }
            ObjectNode p = entry.getValue().get("params") instanceof ObjectNode o ? o.deepCopy() : Json.object();
            answers.set(entry.getKey(), client.ask(method, p));
        }
        return answers;
    }
}
