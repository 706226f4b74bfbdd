package dev.warden.server.internal;

import dev.warden.core.mcp.Logging;
import dev.warden.core.mcp.ProtocolVersion;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a request says about itself in its {@code _meta}: from 2026-07-28 on, a stateless request
 * carries there what a session would otherwise hold (its version, the client's capabilities, the
 * log level it wants).
 */
public final class RequestMeta {

    private RequestMeta() {
    }

    /** The {@code _meta} protocol version a request names, as sent. */
    public static Optional<String> requestedVersion(Optional<JsonNode> params) {
        return params.map(p -> p.get("_meta")).filter(JsonNode::isObject)
                .map(m -> m.get(ProtocolVersion.META_VERSION)).filter(JsonNode::isString).map(JsonNode::stringValue);
    }

    public static Optional<ObjectNode> meta(Optional<JsonNode> params) {
        return params.map(p -> p.get("_meta")).filter(ObjectNode.class::isInstance).map(ObjectNode.class::cast);
    }

    /** The client capabilities a stateless request declares in its {@code _meta}. */
    public static Optional<ObjectNode> clientCapabilities(Optional<JsonNode> params) {
        return meta(params).map(m -> m.get(ProtocolVersion.META_CLIENT_CAPABILITIES))
                .filter(ObjectNode.class::isInstance).map(ObjectNode.class::cast);
    }

    /** The log level a stateless request asks for; none (no logs) if absent or not a level. */
    static Optional<Logging.Level> logLevel(Optional<JsonNode> params) {
        return meta(params).map(m -> m.get(ProtocolVersion.META_LOG_LEVEL))
                .filter(JsonNode::isString).flatMap(l -> {
                    try {
                        return Optional.of(Logging.Level.fromWire(l.stringValue()));
                    } catch (IllegalArgumentException e) {
                        return Optional.empty();
                    }
                });
    }
}
