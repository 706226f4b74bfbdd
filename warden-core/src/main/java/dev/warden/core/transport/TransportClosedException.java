package dev.warden.core.transport;

/** A send on a transport that is closed or whose write failed. */
public class TransportClosedException extends RuntimeException {
    public TransportClosedException(String message, Throwable cause) {
        super(message, cause);
    }
}
