package dev.warden.core.error;

/**
 * A service the tool depends on failed. The cause is kept for the incident log; only the trusted
 * message reaches the peer.
 */
public final class UpstreamFailure extends ToolFailure {
    public UpstreamFailure(String message, Throwable cause) {
        super(ErrorCode.UPSTREAM_ERROR, message, cause);
    }
}
