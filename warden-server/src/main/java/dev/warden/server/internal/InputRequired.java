package dev.warden.server.internal;

import tools.jackson.databind.node.ObjectNode;

/**
 * Ends a tool's round in 2026-07-28 when it needs input the client has not given yet: the tool
 * call answers with an input-required result. An {@link Error} on purpose, so that a tool's
 * {@code catch (Exception e)} does not swallow the request for input; stackless, as it is control
 * flow, not a failure.
 */
final class InputRequired extends Error {

    private final ObjectNode inputRequests;

    InputRequired(ObjectNode inputRequests) {
        super("input required", null, false, false);
        this.inputRequests = inputRequests;
    }

    ObjectNode inputRequests() {
        return inputRequests;
    }
}
