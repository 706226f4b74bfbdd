package dev.warden.core.error;

/** The thing asked for does not exist, or the caller may not know that it does. */
public final class NotFoundFailure extends ToolFailure {
    public NotFoundFailure(String message) {
        super(ErrorCode.NOT_FOUND, message, null);
    }
}
