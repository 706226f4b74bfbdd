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

    /**
     * The peer answered with a frame that is not valid UTF-8 JSON: read as the parse error it
     * would have had to send, so the request fails at once rather than waiting out its timeout.
     */
    public static PeerErrorException unreadableAnswer() {
        return new PeerErrorException(new JsonRpcError(JsonRpcError.PARSE_ERROR,
                "Parse error: the answer is not valid UTF-8 JSON", java.util.Optional.empty()));
    }

    /** The error exactly as the peer sent it: untrusted. */
    public JsonRpcError error() {
        return error;
    }
}
