package dev.warden.core.error;

/**
 * The transport closed before the peer answered. {@link #sessionExpired()} tells the one case a
 * client repairs by itself: a Streamable HTTP server answered 404 for its session, so a new
 * session is initialized and the call retried once.
 */
public final class ConnectionClosedException extends LocalFailure {

    private final boolean sessionExpired;

    public ConnectionClosedException(String message) {
        this(message, null, false);
    }

    public ConnectionClosedException(String message, Throwable cause, boolean sessionExpired) {
        super(message, cause);
        this.sessionExpired = sessionExpired;
    }

    public boolean sessionExpired() {
        return sessionExpired;
    }
}
