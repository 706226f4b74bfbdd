package dev.warden.core.error;

import dev.warden.core.jsonrpc.JsonRpcError;
import java.util.Objects;

/**
 * Thrown by a request handler to answer with a JSON-RPC error. The message is trusted and must not
 * contain the caller's input; the renderer adds Warden's symbolic code and a ref in {@code data}.
 */
public final class ProtocolException extends WardenException {

    private final int code;
    private final ErrorCode symbolic;

    public ProtocolException(int code, String message, ErrorCode symbolic) {
        super(Objects.requireNonNull(message, "message"), null, false);
        if (!JsonRpcError.mayEmit(code)) {
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
