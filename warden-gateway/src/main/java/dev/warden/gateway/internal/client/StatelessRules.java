package dev.warden.gateway.internal.client;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.protocol.StatelessRequests;
import dev.warden.core.session.RequestContext;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The 2026-07-28 (stateless) rules a proxy adds to the core's ({@link StatelessRequests}): which
 * upstream errors stay the client's to act on, and what of a stateless upstream's answer an older
 * client gets.
 */
public final class StatelessRules {

    private StatelessRules() {
    }

    /** Whether this request is a stateless one (2026-07-28): answered with that version's rules. */
    public static boolean stateless(RequestContext ctx) {
        return StatelessRequests.stateless(ctx.params());
    }

    /**
     * The stateless version's request errors are the client's to act on (declare a capability,
     * fix a header), not the tool failing: they stay JSON-RPC errors, rebuilt from what the
     * gateway can vouch for (the capability names it knows; no upstream text).
     */
    public static Optional<ProtocolException> versionRule(JsonRpcError error) {
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

    /**
     * A stateless upstream's result as a session-based server would have given it: without the
     * fields of the newer version (result type, cache hints, the server's name on every result),
     * which mean nothing to this client.
     */
    public static JsonNode sessionShaped(JsonNode result) {
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
