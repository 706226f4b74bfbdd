package dev.warden.core.error;

/** The work did not finish in time; trying again may succeed. */
public final class TimeoutFailure extends ToolFailure {
    public TimeoutFailure(String message, Throwable cause) {
        super(ErrorCode.TIMEOUT, message, cause);
    }
}
