package dev.warden.core.error;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A failure a tool author throws (or returns) on purpose. Its message is trusted: the author wrote
 * it for the caller, so it is shown as written. Everything else a tool throws is untrusted and
 * becomes {@link InternalFailure}.
 *
 * <p>These are expected outcomes, not bugs, so they carry no stack trace.
 */
public abstract sealed class ToolFailure extends WardenException
        permits ValidationFailure, NotFoundFailure, PermissionDeniedFailure, ConflictFailure, RateLimitedFailure,
        TimeoutFailure, UpstreamFailure, BlockedFailure, InternalFailure {

    private final ErrorCode code;

    ToolFailure(ErrorCode code, String message, Throwable cause) {
        super(requireMessage(message), cause, false);
        this.code = Objects.requireNonNull(code, "code");
    }

    private static String requireMessage(String message) {
        Objects.requireNonNull(message, "message");
        if (message.isBlank()) {
            throw new IllegalArgumentException("message must not be blank");
        }
        return message;
    }

    public ErrorCode code() {
        return code;
    }

    /** The trusted message, exactly as the peer will see it. */
    public String safeMessage() {
        return getMessage();
    }

    /**
     * Whether the same call may succeed later without changes: what the code says ({@link
     * ErrorCode#retryable()}, the one registry), but for the one kind whose instances differ (a
     * transient {@link ConflictFailure}).
     */
    public boolean retryable() {
        return code.retryable();
    }

    /** How long the caller should wait before retrying, where known. */
    public Optional<Duration> retryAfter() {
        return Optional.empty();
    }

    public static ValidationFailure validation(List<Violation> violations) {
        return new ValidationFailure(violations);
    }

    public static ValidationFailure invalid(String pointer, String message) {
        return new ValidationFailure(List.of(new Violation(pointer, message)));
    }

    public static NotFoundFailure notFound(String message) {
        return new NotFoundFailure(message);
    }

    public static PermissionDeniedFailure permissionDenied(String message) {
        return new PermissionDeniedFailure(message);
    }

    public static ConflictFailure conflict(String message) {
        return new ConflictFailure(message, false, null);
    }

    public static RateLimitedFailure rateLimited(String message, Duration retryAfter) {
        return new RateLimitedFailure(message, retryAfter);
    }

    public static TimeoutFailure timeout(String message) {
        return new TimeoutFailure(message, null);
    }

    /** An upstream service failed; {@code cause} goes to the incident log, never to the peer. */
    public static UpstreamFailure upstream(String message, Throwable cause) {
        return new UpstreamFailure(message, cause);
    }

    public static BlockedFailure blocked(String message) {
        return new BlockedFailure(message);
    }
}
