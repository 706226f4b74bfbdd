package dev.warden.core.error;

/** The caller is known but not allowed to do this. */
public final class PermissionDeniedFailure extends ToolFailure {
    public PermissionDeniedFailure(String message) {
        super(ErrorCode.PERMISSION_DENIED, message, null);
    }
}
