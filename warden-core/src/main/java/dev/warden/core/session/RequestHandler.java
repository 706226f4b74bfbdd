package dev.warden.core.session;

import tools.jackson.databind.JsonNode;

/**
 * Answers one incoming request on its own virtual thread. Return the {@code result}; throw
 * {@link dev.warden.core.error.ProtocolException} for a deliberate JSON-RPC error. Anything else
 * thrown goes through the error boundary and reaches the peer as a generic error with a ref.
 * When the peer cancels, the thread is interrupted and no answer is sent.
 */
@FunctionalInterface
public interface RequestHandler {
    JsonNode handle(RequestContext context) throws Exception;
}
