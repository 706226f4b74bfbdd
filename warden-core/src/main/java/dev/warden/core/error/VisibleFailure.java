package dev.warden.core.error;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A failure as it crosses the trust boundary: everything the peer may learn of it, and nothing
 * else. Whatever failed (a tool, a handler, the codec, a transport, an upstream behind the
 * gateway) becomes one of these, and {@link ErrorRenderer} alone turns it into bytes: an
 * {@code isError} tool result, a JSON-RPC error, an HTTP error body.
 *
 * <p>The {@link #ref} must resolve: whoever makes one has recorded an incident under it (the
 * {@link dev.warden.core.incident.ErrorBoundary}, the gateway's incident store), so the operator
 * finds the detail the peer was not shown.
 *
 * @param message trusted text, shown as it is
 * @param violations where and why the arguments were rejected; empty when not known (then the
 *     peer sees no {@code violations} at all, never a made-up one)
 * @param retryAfter how long to wait before trying again, only when known (never a guess)
 */
public record VisibleFailure(ErrorCode code, String message, boolean retryable, List<Violation> violations,
                             Optional<Duration> retryAfter, Ref ref) {

    public VisibleFailure {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
        if (message.isBlank()) {
            throw new IllegalArgumentException("message must not be blank");
        }
        violations = List.copyOf(violations);
        retryAfter = Objects.requireNonNullElse(retryAfter, Optional.empty());
        retryAfter.ifPresent(d -> {
            if (d.isNegative()) {
                throw new IllegalArgumentException("retryAfter must not be negative: " + d);
            }
        });
        Objects.requireNonNull(ref, "ref");
    }

    /** A failure with only a code and a message: retryable as the code is, no violations, no retry-after. */
    public static VisibleFailure of(ErrorCode code, String message, Ref ref) {
        return new VisibleFailure(code, message, code.retryable(), List.of(), Optional.empty(), ref);
    }

    /** What the peer may see of a classified failure: its trusted message, its violations and retry-after. */
    public static VisibleFailure of(ToolFailure failure, Ref ref) {
        List<Violation> violations = failure instanceof ValidationFailure v ? v.violations() : List.of();
        return new VisibleFailure(failure.code(), failure.safeMessage(), failure.retryable(), violations,
                failure.retryAfter(), ref);
    }

    public static VisibleFailure of(CapturedFailure captured) {
        return of(captured.failure(), captured.ref());
    }

    /**
     * A protocol error's part of the model; its spec-defined {@code data} fields are the
     * renderer's business ({@link ErrorRenderer#rpcError(ProtocolException, Ref)}).
     */
    public static VisibleFailure of(ProtocolException refused, Ref ref) {
        return refused.failure().orElseGet(() -> of(refused.symbolic(), refused.getMessage(), ref));
    }

    public VisibleFailure withViolations(List<Violation> violations) {
        return new VisibleFailure(code, message, retryable, violations, retryAfter, ref);
    }

    public VisibleFailure withRetryAfter(Duration retryAfter) {
        return new VisibleFailure(code, message, retryable, violations, Optional.of(retryAfter), ref);
    }
}
