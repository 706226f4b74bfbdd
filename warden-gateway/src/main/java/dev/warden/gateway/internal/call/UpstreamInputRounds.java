package dev.warden.gateway.internal.call;

import dev.warden.client.McpClient;
import dev.warden.core.error.IncompatiblePeerException;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.session.InputRounds;
import dev.warden.core.session.RequestOptions;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The input rounds of a stateless upstream (2026-07-28) serving a session-based client, on core's
 * {@link InputRounds} loop (the client's tool calls run the same one): the upstream asks for input
 * in its answer, the client is asked each question as the request it stands for (as a
 * session-based server would have asked it), on the stream of the request being served, and the
 * request is sent again with the answers, until the upstream answers for good.
 */
public final class UpstreamInputRounds {

    /**
     * The first request and up to {@link InputRounds#MAX_INPUT_ROUNDS} more: the 17th answer that
     * still asks for input fails the call.
     */
    private static final InputRounds ROUNDS = new InputRounds("upstream", InputRounds.MAX_INPUT_ROUNDS + 1,
            "Cancelled by the client");

    /** Puts one of the upstream's questions to the client, on the stream of the request being served. */
    @FunctionalInterface
    public interface Client {
        ObjectNode ask(String method, ObjectNode params) throws Exception;
    }

    private final Client client;

    public UpstreamInputRounds(Client client) {
        this.client = client;
    }

    /**
     * The upstream's final answer to {@code sent}, given its first answer {@code result}. Too many
     * rounds, or a question without a known kind, fail the request as an
     * {@link ExecutionException} of an {@link IncompatiblePeerException}; a refusal of the
     * client's fails it as that refusal, as it was thrown ({@link InputRounds#resumeHere}).
     */
    JsonNode run(McpClient upstream, String method, ObjectNode sent, RequestOptions options, JsonNode result)
            throws Exception {
        if (!InputRounds.inputRequired(result)) {
            return result;
        }
        return ROUNDS.resumeHere(sent, result, again -> upstream.requestAsync(method, again, options), this::answers);
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
