package dev.warden.core.error;

/** A policy refused the request before it ran. */
public final class BlockedFailure extends ToolFailure {
    public BlockedFailure(String message) {
        super(ErrorCode.BLOCKED, message, null);
    }
}
