package dev.warden.server;

import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * Input from the client while a request is handled (elicitation, sampling, roots): for tools and
 * for prompts. In 2026-07-28 it is a multi round-trip request: the round ends with an
 * input-required result and the handler runs again, from the start, with the answers.
 */
public interface InputContext {

    /**
     * Input from the client, named by {@code key} (a name the handler chooses, stable across rounds):
     * in 2026-07-28 (multi round-trip requests) the answer the client sent with this retry, or, if
     * it has not, this round ends with an input-required result asking for it, and the handler runs
     * again from the start when the client retries with the answer (answers of earlier rounds
     * travel in a signed {@code requestState}). In the session-based versions, the same request is
     * sent to the client and awaited. Do not catch what this throws to ask.
     */
    ObjectNode input(String key, String method, ObjectNode params) throws Exception;

    /**
     * Several inputs in one round: {@code requests} maps keys to {@code {"method": …, "params": …}}.
     * Returns every answer once the client has given them all.
     */
    Map<String, ObjectNode> inputs(Map<String, ObjectNode> requests) throws Exception;

    /**
     * The capabilities the client declared: at initialize, or (2026-07-28) in this request's
     * {@code _meta}. A handler asks only for input the client can give.
     */
    Optional<ObjectNode> clientCapabilities();
}
