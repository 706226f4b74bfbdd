package dev.warden.core.error;

/** The transport closed before the peer answered. */
public final class ConnectionClosedException extends LocalFailure {
    public ConnectionClosedException(String message) {
        super(message);
    }
}
