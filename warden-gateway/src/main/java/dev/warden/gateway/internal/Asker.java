package dev.warden.gateway.internal;

import tools.jackson.databind.node.ObjectNode;

/** Whoever an upstream's own request (sampling, elicitation, roots) is put to: a client connection, or a parked call. */
interface Asker {

    ObjectNode ask(String method, ObjectNode params) throws Exception;
}
