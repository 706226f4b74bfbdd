package dev.warden.core.mcp;

import dev.warden.core.jsonrpc.RequestId;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Records of progress notifications. A progress token has the same shape as a request id. */
public final class Progress {

    public static final String NOTIFICATION = "notifications/progress";

    private Progress() {
    }

    public record Params(JsonNode progressToken, double progress, OptionalDouble total, Optional<String> message) {
        public Params {
            Objects.requireNonNull(progressToken, "progressToken");
            if (RequestId.fromJson(progressToken).isEmpty()) {
                throw new IllegalArgumentException("progressToken must be a string or an integer");
            }
            total = Objects.requireNonNullElse(total, OptionalDouble.empty());
            message = Objects.requireNonNullElse(message, Optional.empty());
        }
    }

    /** The token in a request's {@code params._meta.progressToken}, if the caller asked for progress. */
    public static Optional<RequestId> tokenOf(Optional<JsonNode> params) {
        return params.filter(JsonNode::isObject).map(p -> p.get("_meta")).filter(m -> m != null && m.isObject())
                .flatMap(m -> RequestId.fromJson(m.get("progressToken")));
    }

    /** Returns params with {@code _meta.progressToken} set, copying rather than changing the caller's tree. */
    public static ObjectNode withToken(Optional<JsonNode> params, RequestId token) {
        ObjectNode copy = params.filter(JsonNode::isObject).map(p -> ((ObjectNode) p).deepCopy())
                .orElseGet(dev.warden.core.json.Json::object);
        JsonNode meta = copy.get("_meta");
        ObjectNode metaObject = meta instanceof ObjectNode o ? o : copy.putObject("_meta");
        metaObject.set("progressToken", token.toJson());
        return copy;
    }
}
