package dev.warden.core.error;

/** This side cancelled the request; a cancellation was sent to the peer and any late answer is dropped. */
public final class RequestCancelledException extends LocalFailure {
    public RequestCancelledException(String message) {
        super(message);
    }
}
