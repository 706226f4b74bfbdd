package dev.warden.core.mcp;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Records of {@code notifications/cancelled}. */
public final class Cancellation {

    public static final String NOTIFICATION = "notifications/cancelled";

    private Cancellation() {
    }

    /** {@code requestId} stays a tree so that a malformed one can be ignored rather than crash the reader. */
    public record Params(JsonNode requestId, Optional<String> reason) {
        public Params {
            Objects.requireNonNull(requestId, "requestId");
            reason = Objects.requireNonNullElse(reason, Optional.empty());
        }
    }

    /** The params of a cancellation of {@code request}; {@code reason} is trusted text. */
    public static ObjectNode params(RequestId request, String reason) {
        ObjectNode params = Json.object();
        params.set("requestId", request.toJson());
        params.put("reason", reason);
        return params;
    }

    /**
     * The whole notification, for a transport that cancels on the peer's behalf (a closed HTTP
     * stream is the client's cancellation) by handing it to the session like any frame.
     */
    public static String frame(RequestId request, String reason) {
        return JsonRpcCodec.encode(new JsonRpcMessage.Notification(NOTIFICATION, Optional.of(params(request, reason)),
                java.util.Map.of()));
    }
}
