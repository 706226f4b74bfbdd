package dev.warden.core.error;

/**
 * The peer's answer was larger than this side accepts, so it was dropped unread; the request it
 * answered fails with this instead of waiting for its timeout.
 */
public final class MessageTooLargeException extends LocalFailure {
    public MessageTooLargeException(String message) {
        super(message);
    }
}
