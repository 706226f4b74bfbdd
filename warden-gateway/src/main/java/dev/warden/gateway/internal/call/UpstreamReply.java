package dev.warden.gateway.internal.call;

import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.gateway.internal.failure.ErrorPipeline;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * How an upstream call ended, the one value every caller of {@link UpstreamCalls#send} reads with
 * an exhaustive switch: a result (which may still be an {@code isError} one), the upstream's
 * JSON-RPC error as it said it, or a failure of the gateway's own already recorded. Failures stay
 * values from the transport to the answer: none is thrown to be caught back.
 */
public sealed interface UpstreamReply {

    /** The result, when the upstream answered with one; a reader that only wants results uses this. */
    default Optional<JsonNode> answered() {
        return this instanceof Answered(JsonNode result) ? Optional.of(result) : Optional.empty();
    }

    /** The upstream answered with a result. */
    record Answered(JsonNode result) implements UpstreamReply {
    }

    /** The call did not end in a result. */
    sealed interface Failure extends UpstreamReply {
    }

    /** The upstream answered with a JSON-RPC error: it is alive, whatever the error says. */
    record ErrorAnswer(JsonRpcError error) implements Failure {
    }

    /** The gateway's own failure (a limit, no connection, a timeout), recorded as an incident. */
    record Recorded(ErrorPipeline.Outcome outcome) implements Failure {
    }
}
