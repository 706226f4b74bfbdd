package dev.warden.core.error;

/** No response arrived in time; a cancellation was sent to the peer. */
public final class RequestTimeoutException extends LocalFailure {
    public RequestTimeoutException(String message) {
        super(message);
    }
}
