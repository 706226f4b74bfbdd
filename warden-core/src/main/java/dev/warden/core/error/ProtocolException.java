package dev.warden.core.error;

import dev.warden.core.jsonrpc.JsonRpcError;
import java.util.Objects;

/**
 * Thrown by a request handler to answer with a JSON-RPC error. The message is trusted and must not
 * contain the caller's input; the renderer adds Warden's symbolic code and a ref in {@code data}.
 */
public final class ProtocolException extends WardenException {

    /** The one code in -32000..-32019 that MCP itself defines (2024-11-05 to 2025-11-25). */
    public static final int RESOURCE_NOT_FOUND = -32002;

    private final int code;
    private final ErrorCode symbolic;

    public ProtocolException(int code, String message, ErrorCode symbolic) {
        super(Objects.requireNonNull(message, "message"), null, false);
        if (JsonRpcError.isLegacyServerErrorBand(code) && code != RESOURCE_NOT_FOUND) {
            throw new IllegalArgumentException("code " + code + " is in the legacy band -32000..-32019");
        }
        this.code = code;
        this.symbolic = Objects.requireNonNull(symbolic, "symbolic");
    }

    public static ProtocolException invalidParams(String message) {
        return new ProtocolException(JsonRpcError.INVALID_PARAMS, message, ErrorCode.VALIDATION_ERROR);
    }

    public static ProtocolException invalidRequest(String message) {
        return new ProtocolException(JsonRpcError.INVALID_REQUEST, message, ErrorCode.VALIDATION_ERROR);
    }

    public int code() {
        return code;
    }

    public ErrorCode symbolic() {
        return symbolic;
    }
}
