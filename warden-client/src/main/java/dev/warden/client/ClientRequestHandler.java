package dev.warden.client;

import tools.jackson.databind.node.ObjectNode;

/**
 * Answers a request the server sends to the client ({@code sampling/createMessage},
 * {@code elicitation/create}, {@code roots/list}): params in, result out. A
 * {@link dev.warden.core.error.ProtocolException} becomes that JSON-RPC error; any other exception
 * a generic one with a ref, never its message.
 */
@FunctionalInterface
public interface ClientRequestHandler {
    ObjectNode handle(ObjectNode params) throws Exception;
}
