package dev.warden.core.protocol;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.Logging;
import dev.warden.core.mcp.Ping;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.mcp.Resources;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What 2026-07-28 asks of a request that has no session: its {@code _meta} names its version
 * and declares the client's capabilities, and the methods that version removed are unknown. The
 * SDK's server and the gateway admit such requests by these rules alone.
 */
public final class StatelessRequests {

    /** Methods 2026-07-28 removed: a stateless request for one is an unknown method. */
    public static final Set<String> REMOVED = Set.of(Lifecycle.INITIALIZE, Ping.METHOD, Logging.SET_LEVEL,
            Resources.SUBSCRIBE, Resources.UNSUBSCRIBE);

    private StatelessRequests() {
    }

    /** The protocol version a request names in its {@code _meta}, as sent; empty for a session's request. */
    public static Optional<String> requestedVersion(Optional<JsonNode> params) {
        return meta(params).map(m -> m.get(ProtocolVersion.META_VERSION)).filter(JsonNode::isString)
                .map(JsonNode::stringValue);
    }

    /** Whether the request is a stateless one: it names a version in its {@code _meta}. */
    public static boolean stateless(Optional<JsonNode> params) {
        return requestedVersion(params).isPresent();
    }

    /** The request's {@code _meta}, if it is an object. */
    public static Optional<ObjectNode> meta(Optional<JsonNode> params) {
        return params.map(p -> p.get("_meta")).filter(ObjectNode.class::isInstance).map(ObjectNode.class::cast);
    }

    /** The client capabilities a stateless request declares in its {@code _meta}. */
    public static Optional<ObjectNode> clientCapabilities(Optional<JsonNode> params) {
        return meta(params).map(m -> m.get(ProtocolVersion.META_CLIENT_CAPABILITIES))
                .filter(ObjectNode.class::isInstance).map(ObjectNode.class::cast);
    }

    /** The log level a stateless request asks for; none (no logs) if absent or not a level. */
    public static Optional<Logging.Level> logLevel(Optional<JsonNode> params) {
        return meta(params).map(m -> m.get(ProtocolVersion.META_LOG_LEVEL)).filter(JsonNode::isString)
                .flatMap(l -> Logging.Level.named(l.stringValue()));
    }

    /**
     * Why a stateless request is refused, checked in this order: a version this side does not
     * speak statelessly (-32022 with the list), no client capabilities (-32602), a removed method
     * (-32601). Empty for an admissible one, and for any request of a session (no version named).
     */
    public static Optional<ProtocolException> refusal(JsonRpcMessage.Request request) {
        Optional<String> requested = requestedVersion(request.params());
        if (requested.isEmpty()) {
            return Optional.empty();
        }
        if (ProtocolVersion.fromWire(requested.get()).filter(ProtocolVersion::stateless).isEmpty()) {
            return Optional.of(ProtocolException.unsupportedVersion(requested.get(), ProtocolVersion.supportedWire()));
        }
        if (clientCapabilities(request.params()).isEmpty()) {
            return Optional.of(ProtocolException.invalidMeta(
                    "Invalid params: _meta must carry io.modelcontextprotocol/clientCapabilities"));
        }
        if (REMOVED.contains(request.method())) {
            return Optional.of(ProtocolException.methodNotFound());
        }
        return Optional.empty();
    }
}
