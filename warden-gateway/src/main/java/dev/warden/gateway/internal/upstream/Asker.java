package dev.warden.gateway.internal.upstream;

import dev.warden.client.McpClient;
import tools.jackson.databind.node.ObjectNode;

/** Whoever an upstream's own request (sampling, elicitation, roots) is put to: a client connection, or a parked call. */
public interface Asker {

    /** The question {@code on}, the upstream connection it came on, put to this one. */
    ObjectNode ask(McpClient on, String method, ObjectNode params) throws Exception;

    /**
     * Whether this one's upstream call is blocked on a question its client has not answered yet:
     * it cannot be asking anything new, so it is not a candidate for the upstream's next question
     * (a parked call whose client never comes back must not make every other call unroutable).
     */
    default boolean waitingForClient() {
        return false;
    }

    /**
     * Whether a question put to this one goes back to its client inside its own call's result
     * (a stateless client's parked call), where no other client can read it: then even a shared
     * connection's {@code roots/list} may be put to it.
     */
    default boolean answersInItsOwnCall() {
        return false;
    }
}
