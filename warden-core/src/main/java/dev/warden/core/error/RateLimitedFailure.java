package dev.warden.core.error;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/** The caller is over a limit; {@link #retryAfter()} tells the model how long to wait. */
public final class RateLimitedFailure extends ToolFailure {

    private final Duration retryAfter;

    public RateLimitedFailure(String message, Duration retryAfter) {
        super(ErrorCode.RATE_LIMITED, message, null);
        Objects.requireNonNull(retryAfter, "retryAfter");
        if (retryAfter.isNegative()) {
            throw new IllegalArgumentException("retryAfter must not be negative: " + retryAfter);
        }
        this.retryAfter = retryAfter;
    }

    @Override
    public Optional<Duration> retryAfter() {
        return Optional.of(retryAfter);
    }
}
