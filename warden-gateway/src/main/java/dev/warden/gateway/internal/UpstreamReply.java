package dev.warden.gateway.internal;

import dev.warden.core.error.PeerErrorException;
import tools.jackson.databind.JsonNode;

/**
 * How an upstream call ended, as the tool call path turns it into the client's answer: a result
 * (which may still be an {@code isError} one), the upstream's JSON-RPC error as it said it, or a
 * failure of the gateway's own already recorded.
 */
sealed interface UpstreamReply {

    /** The upstream answered with a result. */
    record Answered(JsonNode result) implements UpstreamReply {
    }

    /** The call did not end in a result. */
    sealed interface Failure extends UpstreamReply {

        /** The exception a request that is not a tool call ends with. */
        Exception thrown();
    }

    /** The upstream answered with a JSON-RPC error: it is alive, whatever the error says. */
    record ErrorAnswer(PeerErrorException error) implements Failure {

        @Override
        public Exception thrown() {
            return error;
        }
    }

    /** The gateway's own failure (a limit, no connection, a timeout), recorded as an incident. */
    record Recorded(ErrorPipeline.Outcome outcome) implements Failure {

        @Override
        public Exception thrown() {
            return new RecordedFailure(outcome);
        }
    }
}
