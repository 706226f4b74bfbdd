package dev.warden.core.error;

/**
 * The request conflicts with current state. Retryable when the conflict is transient (a
 * serialization failure or deadlock), not when it is permanent (a duplicate key): the one code whose
 * failures differ in that, so the flag lives here rather than in {@link ErrorCode#CONFLICT}.
 */
public final class ConflictFailure extends ToolFailure {

    private final boolean retryable;

    public ConflictFailure(String message, boolean retryable, Throwable cause) {
        super(ErrorCode.CONFLICT, message, cause);
        this.retryable = retryable;
    }

    @Override
    public boolean retryable() {
        return retryable;
    }
}
