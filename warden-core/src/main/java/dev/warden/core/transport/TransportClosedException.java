package dev.warden.core.transport;

import dev.warden.core.error.TransportException;

/**
 * A send on a transport that is closed or whose write failed. Its kinds are closed, so the session
 * turns each into the failure of the request it carried with a checked {@code switch}.
 */
public sealed class TransportClosedException extends TransportException
        permits SendTimeoutException, SessionExpiredException, UnauthorizedException {
    public TransportClosedException(String message, Throwable cause) {
        super(message, cause);
    }
}
