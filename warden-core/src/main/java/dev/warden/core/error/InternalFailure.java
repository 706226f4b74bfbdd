package dev.warden.core.error;

/**
 * Anything a tool threw that was not a {@link ToolFailure}. Its text is untrusted, so the peer sees
 * only the generic message and a ref; the cause goes to the incident log.
 */
public final class InternalFailure extends ToolFailure {
    public InternalFailure(Throwable cause) {
        super(ErrorCode.INTERNAL_ERROR, ErrorCode.INTERNAL_ERROR.defaultMessage(), cause);
    }
}
