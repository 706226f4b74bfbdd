package dev.warden.gateway;

import dev.warden.core.json.Json;
import dev.warden.core.transport.Transport;
import tools.jackson.databind.JsonNode;

/**
 * An upstream's connection as a server without one method sees it: that method is answered here
 * with the given JSON-RPC error object (on a thread of its own, as a peer would) and never sent on.
 */
final class RefusingMethod extends ForwardingTransport {

    private final String method;
    private final String error;

    RefusingMethod(Transport inner, String method, String error) {
        super(inner);
        this.method = method;
        this.error = error;
    }

    @Override
    public void send(String frame) {
        JsonNode message = Json.mapper().readTree(frame);
        if (method.equals(message.path("method").asString(""))) {
            toGateway("{\"jsonrpc\":\"2.0\",\"id\":" + message.get("id") + ",\"error\":" + error + "}");
            return;
        }
        super.send(frame);
    }
}
