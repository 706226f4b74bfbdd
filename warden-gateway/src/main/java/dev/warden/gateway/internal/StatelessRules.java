package dev.warden.gateway.internal;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.session.RequestContext;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The 2026-07-28 (stateless) rules as the gateway applies them between its two sides: which
 * requests are stateless and may be served, what their results must carry, which upstream errors
 * stay the client's to act on, and what of a stateless upstream's answer an older client gets.
 */
final class StatelessRules {

    private StatelessRules() {
    }

    /** Methods 2026-07-28 removed: a stateless request for one is an unknown method. */
    static final Set<String> REMOVED_IN_STATELESS = Set.of(Lifecycle.INITIALIZE, "ping", "logging/setLevel",
            "resources/subscribe", "resources/unsubscribe");

    /**
     * The gateway speaks every version to its clients: the session-based ones after initialize,
     * 2026-07-28 per request (the request's {@code _meta} names the version and the client's
     * capabilities; there is no session to remember them).
     */
    static Optional<ProtocolException> admit(dev.warden.core.jsonrpc.JsonRpcMessage.Request r) {
        Optional<String> version = envelopeVersion(r.params());
        if (version.isEmpty()) {
            return Optional.empty();
        }
        if (ProtocolVersion.fromWire(version.get()).filter(ProtocolVersion::stateless).isEmpty()) {
            return Optional.of(ProtocolException.unsupportedVersion(version.get(), ProtocolVersion.supportedWire()));
        }
        if (!(r.params().map(p -> p.path("_meta").get(ProtocolVersion.META_CLIENT_CAPABILITIES)).orElse(null)
                instanceof ObjectNode)) {
            return Optional.of(ProtocolException.invalidMeta(
                    "Invalid params: _meta must carry io.modelcontextprotocol/clientCapabilities"));
        }
        if (REMOVED_IN_STATELESS.contains(r.method())) {
            return Optional.of(ProtocolException.methodNotFound());
        }
        return Optional.empty();
    }

    static Optional<String> envelopeVersion(Optional<JsonNode> params) {
        return params.map(p -> p.get("_meta")).filter(JsonNode::isObject)
                .map(m -> m.get(ProtocolVersion.META_VERSION)).filter(JsonNode::isString).map(JsonNode::stringValue);
    }

    /** Whether this request is a stateless one (2026-07-28): answered with that version's rules. */
    static boolean stateless(RequestContext ctx) {
        return envelopeVersion(ctx.params()).isPresent();
    }

    static boolean knownLevel(String level) {
        return java.util.Arrays.stream(dev.warden.core.mcp.Logging.Level.values()).anyMatch(l -> l.wire().equals(level));
    }


    /**
     * The stateless version's request errors are the client's to act on (declare a capability,
     * fix a header), not the tool failing: they stay JSON-RPC errors, rebuilt from what the
     * gateway can vouch for (the capability names it knows; no upstream text).
     */
    static Optional<ProtocolException> versionRule(JsonRpcError error) {
        if (error.code() == JsonRpcError.MISSING_REQUIRED_CLIENT_CAPABILITY) {
            JsonNode required = error.data().map(d -> d.path("requiredCapabilities")).orElseGet(Json::object);
            // A name is repeated only if it looks like one (a short word); the upstream's text is not.
            Optional<String> named = required.propertyNames().stream()
                    .filter(n -> n.length() <= 32 && !n.isEmpty() && n.chars().allMatch(c -> c < 128 && Character.isLetter(c))).findFirst();
            return Optional.of(named.map(ProtocolException::missingClientCapability).orElseGet(() ->
                    new ProtocolException(JsonRpcError.MISSING_REQUIRED_CLIENT_CAPABILITY,
                            "Missing required client capability", ErrorCode.VALIDATION_ERROR)));
        }
        if (error.code() == JsonRpcError.HEADER_MISMATCH) {
            return Optional.of(ProtocolException.headerMismatch(
                    "Header mismatch: a request header is missing or differs from the body"));
        }
        return Optional.empty();
    }

    static boolean levelAtLeast(String level, String threshold) {
        List<String> order = java.util.Arrays.stream(dev.warden.core.mcp.Logging.Level.values())
                .map(dev.warden.core.mcp.Logging.Level::wire).toList();
        return order.indexOf(level) >= order.indexOf(threshold) && order.contains(threshold);
    }

    /**
     * A stateless upstream's result as a session-based server would have given it: without the
     * fields of the newer version (result type, cache hints, the server's name on every result),
     * which mean nothing to this client.
     */
    static JsonNode sessionShaped(JsonNode result) {
        if (!(result instanceof ObjectNode object)) {
            return result;
        }
        ObjectNode copy = object.deepCopy();
        copy.remove(List.of("resultType", "ttlMs", "cacheScope"));
        if (copy.get("_meta") instanceof ObjectNode meta) {
            meta.remove(ProtocolVersion.META_SERVER_INFO);
            if (meta.isEmpty()) {
                copy.remove("_meta");
            }
        }
        return copy;
    }
}
