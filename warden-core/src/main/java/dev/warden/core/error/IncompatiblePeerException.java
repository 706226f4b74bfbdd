package dev.warden.core.error;

/**
 * The peer answered, but in a way this side cannot use: a protocol version it does not speak, a
 * capability it lacks for what was asked, or structured content that breaks the tool's declared
 * output schema. Raised locally; the peer's own text is not in the message.
 */
public final class IncompatiblePeerException extends LocalFailure {
    public IncompatiblePeerException(String message) {
        super(message);
    }
}
