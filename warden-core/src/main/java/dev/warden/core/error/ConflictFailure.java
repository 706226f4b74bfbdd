package dev.warden.core.error;

/**
 * The request conflicts with current state. Retryable when the conflict is transient (a
 * serialization failure or deadlock), not when it is permanent (a duplicate key).
 */
public final class ConflictFailure extends ToolFailure {
    public ConflictFailure(String message, boolean retryable, Throwable cause) {
        super(ErrorCode.CONFLICT, message, retryable, cause);
    }
}
