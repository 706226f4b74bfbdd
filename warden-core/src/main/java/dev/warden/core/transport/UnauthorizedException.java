package dev.warden.core.transport;

/**
 * The server answered a send with 401 or 403 and authorization could not fix it. The session
 * reports it to the waiting request as an authorization failure, not as a closed connection.
 */
public final class UnauthorizedException extends TransportClosedException {
    public UnauthorizedException(String message, Throwable cause) {
        super(message, cause);
    }
}
