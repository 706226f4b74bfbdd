package dev.warden.core.error;

/**
 * No response arrived in time; a cancellation was sent to the peer. It carries no stack trace: it is
 * made on the timer thread, whose frames tell nothing, and a peer that lets requests time out in a
 * loop would otherwise fill the incident store with them.
 */
public final class RequestTimeoutException extends LocalFailure {
    public RequestTimeoutException(String message) {
        super(message, false);
    }
}
