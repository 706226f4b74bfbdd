package dev.warden.core.error;

/**
 * The registry of symbolic failure codes. A model branches on these, never on prose; each has a
 * default message that is safe to show anyone.
 */
public enum ErrorCode {
    VALIDATION_ERROR(false, false, "The arguments are not valid for this tool."),
    NOT_FOUND(false, false, "The requested item was not found."),
    PERMISSION_DENIED(false, false, "The caller is not allowed to do this."),
    CONFLICT(false, false, "The request conflicts with the current state."),
    RATE_LIMITED(true, false, "Too many requests; retry later."),
    TIMEOUT(true, false, "The operation timed out."),
    UPSTREAM_ERROR(true, true, "A service this tool depends on failed."),
    BLOCKED(false, false, "The request was blocked by policy."),
    INTERNAL_ERROR(false, true, "An internal error occurred.");

    private final boolean retryable;
    private final boolean systemFailure;
    private final String defaultMessage;

    ErrorCode(boolean retryable, boolean systemFailure, String defaultMessage) {
        this.retryable = retryable;
        this.systemFailure = systemFailure;
        this.defaultMessage = defaultMessage;
    }

    /**
     * Whether the same call may succeed later without changes: the one source of the flag a failure
     * carries ({@link ToolFailure#retryable()}), which only a transient {@link ConflictFailure} overrides.
     */
    public boolean retryable() {
        return retryable;
    }

    /**
     * A failure of the system rather than of the caller's request; only these reach an
     * {@link dev.warden.core.incident.ErrorReporter}, so user-correctable errors do not page anyone.
     */
    public boolean systemFailure() {
        return systemFailure;
    }

    public String defaultMessage() {
        return defaultMessage;
    }
}
