package dev.warden.gateway.internal.client;

import dev.warden.client.McpClient;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.sanitize.CallerInput;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/** One client's requests in flight upstream, by the upstream connection each went on. */
public final class CallsInFlight {

    /** One of this client's requests in flight upstream: on which connection, with what params. */
    private record Call(McpClient upstream, Optional<JsonNode> params) {
    }

    private final Map<RequestId, Call> calls = new ConcurrentHashMap<>();

    public void started(RequestId id, McpClient upstream, Optional<JsonNode> params) {
        calls.put(id, new Call(upstream, params));
    }

    public void ended(RequestId id) {
        calls.remove(id);
    }

    /**
     * One of this client's requests in flight on that upstream connection: what the connection
     * asks or says mid-call travels on its stream, which the client is reading for the answer
     * (the client's GET stream may not be open yet, and then would lose it).
     */
    public Optional<RequestId> on(McpClient upstream) {
        return calls.entrySet().stream().filter(e -> e.getValue().upstream() == upstream)
                .map(Map.Entry::getKey).findFirst();
    }

    /**
     * What this client sent in the calls it has in flight on that upstream connection: a log the
     * server writes meanwhile may repeat it to this client (the only one of a dedicated link).
     */
    public CallerInput sentOn(McpClient upstream) {
        ArrayNode sent = Json.mapper().getNodeFactory().arrayNode();
        for (Call call : calls.values()) {
            if (call.upstream() == upstream) {
                call.params().map(p -> p.has("arguments") ? p.get("arguments") : p).ifPresent(sent::add);
            }
        }
        return sent.isEmpty() ? CallerInput.none() : CallerInput.of(sent);
    }
}
