package dev.warden.core.jsonrpc;

import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The {@code error} member of a JSON-RPC response. When Warden builds one, {@code message} is
 * trusted text; when one arrives from a peer, every part of it is untrusted.
 */
public record JsonRpcError(int code, String message, Optional<JsonNode> data) {

    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;

    public JsonRpcError {
        Objects.requireNonNull(message, "message");
        data = Objects.requireNonNullElse(data, Optional.empty());
    }

    public static JsonRpcError of(int code, String message) {
        return new JsonRpcError(code, message, Optional.empty());
    }

    public static JsonRpcError of(int code, String message, JsonNode data) {
        return new JsonRpcError(code, message, Optional.of(data));
    }

    /**
     * "Resource not found" as the MCP versions 2024-11-05 to 2025-11-25 define it: the one code in
     * the legacy band a negotiated version defines, and so the one Warden may send from it.
     */
    public static final int MCP_RESOURCE_NOT_FOUND = -32002;

    /** True for the implementation-defined band; a peer may send these, Warden does not. */
    public static boolean isLegacyServerErrorBand(int code) {
        return code >= -32019 && code <= -32000;
    }

    /** 2026-07-28: HTTP headers disagree with the body, or a required one is missing. */
    public static final int HEADER_MISMATCH = -32020;
    /** 2026-07-28: the request needs a client capability the client did not declare. */
    public static final int MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;
    /** 2026-07-28: the request's protocol version is not one the server speaks. */
    public static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

    /** Whether Warden may send this code: anything outside the legacy band, and the MCP-defined code in it. */
    public static boolean mayEmit(int code) {
        return !isLegacyServerErrorBand(code) || code == MCP_RESOURCE_NOT_FOUND || code == HEADER_MISMATCH
                || code == MISSING_REQUIRED_CLIENT_CAPABILITY || code == UNSUPPORTED_PROTOCOL_VERSION;
    }
}
