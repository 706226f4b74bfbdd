package dev.warden.core.session;

import dev.warden.core.mcp.Progress;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * How long to wait for one outgoing request. {@code timeout} is the idle limit; with
 * {@code resetTimeoutOnProgress} each progress notification restarts it, but never past
 * {@code maxTotalTimeout}, so a peer that reports progress forever still ends. Unset, the total is
 * {@link #DEFAULT_MAX_TOTAL_TIMEOUT}, or the idle {@code timeout} if that is longer.
 */
public record RequestOptions(Duration timeout, Optional<Duration> maxTotalTimeout, boolean resetTimeoutOnProgress,
                             Optional<Consumer<Progress.Params>> onProgress) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    /**
     * The longest a request may run in all when progress keeps resetting its idle timeout: without
     * it, a peer reporting progress for ever holds the caller for ever. Long enough for real work;
     * {@link #withMaxTotalTimeout} sets another.
     */
    public static final Duration DEFAULT_MAX_TOTAL_TIMEOUT = Duration.ofMinutes(10);

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

    /** 60 s idle timeout, not reset by progress, the default maximum total: a request's defaults. */
    public static RequestOptions ofDefaults() {
        return new RequestOptions(DEFAULT_TIMEOUT, Optional.empty(), false, Optional.empty());
    }

    /**
     * A tool call's defaults in the client: 60 s idle timeout, reset by each progress notification
     * (a tool that reports progress is working), the default maximum total.
     */
    public static RequestOptions ofToolCallDefaults() {
        return new RequestOptions(DEFAULT_TIMEOUT, Optional.empty(), true, Optional.empty());
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

    /** The total a request may run: the one set, else the default but never less than one idle timeout. */
    Duration effectiveMaxTotal() {
        return maxTotalTimeout.orElse(DEFAULT_MAX_TOTAL_TIMEOUT.compareTo(timeout) < 0 ? timeout
                : DEFAULT_MAX_TOTAL_TIMEOUT);
    }

    /** A progress token is attached when someone will use the notifications. */
    boolean wantsProgress() {
        return resetTimeoutOnProgress || onProgress.isPresent();
    }
}
