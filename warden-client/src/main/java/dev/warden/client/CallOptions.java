package dev.warden.client;

import dev.warden.core.mcp.Progress;
import dev.warden.core.session.RequestOptions;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Per-call limits: an idle timeout (reset by each progress notification when
 * {@code resetTimeoutOnProgress}), an optional maximum total that progress never extends, and a
 * progress listener.
 */
public record CallOptions(Duration timeout, boolean resetTimeoutOnProgress, Optional<Duration> maxTotal,
                          Optional<Consumer<Progress.Params>> onProgress) {

    public CallOptions {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
        maxTotal = Objects.requireNonNullElse(maxTotal, Optional.empty());
        maxTotal.ifPresent(max -> {
            if (max.isNegative() || max.isZero()) {
                throw new IllegalArgumentException("maxTotal must be positive, got " + max);
            }
        });
        onProgress = Objects.requireNonNullElse(onProgress, Optional.empty());
    }

    /** 60 s idle timeout, reset on progress, no maximum total. */
    public static CallOptions ofDefaults() {
        return new CallOptions(RequestOptions.DEFAULT_TIMEOUT, true, Optional.empty(), Optional.empty());
    }

    public CallOptions withTimeout(Duration timeout) {
        return new CallOptions(timeout, resetTimeoutOnProgress, maxTotal, onProgress);
    }

    public CallOptions withResetTimeoutOnProgress(boolean reset) {
        return new CallOptions(timeout, reset, maxTotal, onProgress);
    }

    public CallOptions withMaxTotal(Duration max) {
        return new CallOptions(timeout, resetTimeoutOnProgress, Optional.of(max), onProgress);
    }

    public CallOptions withOnProgress(Consumer<Progress.Params> listener) {
        return new CallOptions(timeout, resetTimeoutOnProgress, maxTotal, Optional.of(listener));
    }

    RequestOptions toRequestOptions() {
        RequestOptions options = RequestOptions.ofDefaults().withTimeout(timeout)
                .withResetTimeoutOnProgress(resetTimeoutOnProgress);
        if (maxTotal.isPresent()) {
            options = options.withMaxTotalTimeout(maxTotal.get());
        }
        if (onProgress.isPresent()) {
            options = options.withProgress(onProgress.get());
        }
        return options;
    }
}
