package dev.warden.core.protocol;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.mcp.Implementation;
import dev.warden.core.mcp.ProtocolVersion;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What 2026-07-28 requires of every result of a stateless request: a {@code resultType}, the
 * server's identity in {@code _meta}, and on cacheable results a TTL and a cache scope. Values the
 * handler set stand; the defaults are the cautious ones (TTL zero, private: a shared cache must
 * not keep one user's view).
 */
public final class StatelessResults {

    /** Methods whose results a client may cache. */
    public static final Set<String> CACHEABLE = Set.of("tools/list", "resources/list", "resources/templates/list",
            "resources/read", "prompts/list", "server/discover");

    private StatelessResults() {
    }

    /**
     * The answer to {@code request} as its version wants it: a stateless request's result (and
     * every {@code server/discover} result, the stateless probe) decorated; any other as it is.
     */
    public static JsonNode of(JsonRpcMessage.Request request, JsonNode result, Implementation serverInfo) {
        if (StatelessRequests.requestedVersion(request.params()).isEmpty()
                && !ServerHandshake.DISCOVER.equals(request.method())) {
            return result;
        }
        return decorate(request.method(), result, Json.tree(serverInfo));
    }

    /** The result with the version's fields added; anything but an object is returned as it is. */
    static JsonNode decorate(String method, JsonNode result, JsonNode serverInfo) {
        if (!(result instanceof ObjectNode object)) {
            return result;
        }
        ObjectNode out = object.deepCopy();
        if (!out.has("resultType")) {
            out.put("resultType", "complete");
        }
        ObjectNode meta = out.get("_meta") instanceof ObjectNode m ? m : out.putObject("_meta");
        meta.set(ProtocolVersion.META_SERVER_INFO, serverInfo);
        if (CACHEABLE.contains(method)) {
            if (!out.has("ttlMs")) {
                out.put("ttlMs", 0);
            }
            if (!out.has("cacheScope")) {
                out.put("cacheScope", "private");
            }
        }
        return out;
    }
}
