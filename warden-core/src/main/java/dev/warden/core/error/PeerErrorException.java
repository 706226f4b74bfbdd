package dev.warden.core.error;

import dev.warden.core.jsonrpc.JsonRpcError;
import java.util.Objects;

/**
 * The peer answered with a JSON-RPC error. Its message and data are untrusted, so
 * {@link #getMessage()} names only the code; the raw error is available for code that sanitizes it.
 */
public final class PeerErrorException extends WardenException {

    private final transient JsonRpcError error;

    public PeerErrorException(JsonRpcError error) {
        super("The peer answered with JSON-RPC error " + Objects.requireNonNull(error, "error").code(), null, false);
        this.error = error;
    }

    /** The error exactly as the peer sent it: untrusted. */
    public JsonRpcError error() {
        return error;
    }
}
