package dev.warden.core.transport;

/**
 * The server no longer knows this client's session (Streamable HTTP answered 404 for its
 * {@code Mcp-Session-Id}): the client starts a new session, as the spec requires.
 */
public final class SessionExpiredException extends TransportClosedException {
    public SessionExpiredException(String message) {
        super(message, null);
    }
}
