package dev.warden.core.session;

import dev.warden.core.mcp.Progress;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * How long to wait for one outgoing request. {@code timeout} is the idle limit; with
 * {@code resetTimeoutOnProgress} each progress notification restarts it, but never past
 * {@code maxTotalTimeout}, so a peer that reports progress forever still ends.
 */
public record RequestOptions(Duration timeout, Optional<Duration> maxTotalTimeout, boolean resetTimeoutOnProgress,
                             Optional<Consumer<Progress.Params>> onProgress) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    public RequestOptions {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
        maxTotalTimeout = Objects.requireNonNullElse(maxTotalTimeout, Optional.empty());
        maxTotalTimeout.ifPresent(max -> {
            if (max.isNegative() || max.isZero()) {
                throw new IllegalArgumentException("maxTotalTimeout must be positive, got " + max);
            }
        });
        onProgress = Objects.requireNonNullElse(onProgress, Optional.empty());
    }

    public static RequestOptions ofDefaults() {
        return new RequestOptions(DEFAULT_TIMEOUT, Optional.empty(), false, Optional.empty());
    }

    public RequestOptions withTimeout(Duration timeout) {
        return new RequestOptions(timeout, maxTotalTimeout, resetTimeoutOnProgress, onProgress);
    }

    public RequestOptions withMaxTotalTimeout(Duration max) {
        return new RequestOptions(timeout, Optional.of(max), resetTimeoutOnProgress, onProgress);
    }

    public RequestOptions withResetTimeoutOnProgress(boolean reset) {
        return new RequestOptions(timeout, maxTotalTimeout, reset, onProgress);
    }

    public RequestOptions withProgress(Consumer<Progress.Params> listener) {
        return new RequestOptions(timeout, maxTotalTimeout, resetTimeoutOnProgress, Optional.of(listener));
    }

    /** A progress token is attached when someone will use the notifications. */
    boolean wantsProgress() {
        return resetTimeoutOnProgress || onProgress.isPresent();
    }
}
