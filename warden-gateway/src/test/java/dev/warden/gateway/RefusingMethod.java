package dev.warden.gateway;

import dev.warden.core.json.Json;
import dev.warden.core.transport.Transport;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;

/**
 * An upstream's connection as a server without one method sees it: that method is answered here
 * with the given JSON-RPC error object (on a thread of its own, as a peer would) and never sent on.
 */
final class RefusingMethod implements Transport {

    private final Transport inner;
    private final String method;
    private final String error;
    private volatile Listener listener;

    RefusingMethod(Transport inner, String method, String error) {
        this.inner = inner;
        this.method = method;
        this.error = error;
    }

    @Override
    public void start(Listener l) {
        listener = l;
        inner.start(l);
    }

    @Override
    public void send(String frame) {
        JsonNode message = Json.mapper().readTree(frame);
        if (method.equals(message.path("method").asString(""))) {
            String refusal = "{\"jsonrpc\":\"2.0\",\"id\":" + message.get("id") + ",\"error\":" + error + "}";
            Thread.ofVirtual().start(() -> listener.onFrame(refusal.getBytes(StandardCharsets.UTF_8)));
            return;
        }
        inner.send(frame);
    }

    @Override
    public void close() {
        inner.close();
    }
}
