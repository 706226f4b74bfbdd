package dev.warden.gateway.internal;

import dev.warden.core.error.ErrorCode;
import dev.warden.gateway.Limits;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * What stands between the clients and one upstream: a token bucket per tool, a concurrency limit
 * (Resilience4j bulkhead) and a circuit breaker (Resilience4j). A refusal is an {@link Refusal}
 * with the code and the time after which trying again makes sense.
 */
final class Guard {

    /** Why a call did not go to the upstream, and when to try again. */
    record Refusal(ErrorCode code, String message, Duration retryAfter) {
    }

    /** A call that was let through: report how it went, exactly once. */
    interface Permit {
        void succeeded();

        void failed(Throwable cause);
    }

    private final Limits limits;
    private final CircuitBreaker breaker;
    private final Bulkhead bulkhead;
    private final Map<String, Bucket> toolBuckets = new ConcurrentHashMap<>();
    private final Clock clock;
    private volatile Instant openedAt = Instant.EPOCH;

    Guard(String upstream, Limits limits, Clock clock) {
        this.limits = limits;
        this.clock = clock;
        Limits.Breaker b = limits.breaker();
        this.breaker = CircuitBreaker.of(upstream, CircuitBreakerConfig.custom()
                .failureRateThreshold(b.failureRatePercent())
                .minimumNumberOfCalls(b.minimumCalls())
                .slidingWindowSize(b.window())
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .waitDurationInOpenState(b.openFor())
                .permittedNumberOfCallsInHalfOpenState(Math.min(3, b.minimumCalls()))
                .automaticTransitionFromOpenToHalfOpenEnabled(false)
                .build());
        this.breaker.getEventPublisher().onStateTransition(e -> {
            if (e.getStateTransition().getToState() == CircuitBreaker.State.OPEN) {
                openedAt = clock.instant();
            }
        });
        this.bulkhead = Bulkhead.of(upstream, BulkheadConfig.custom()
                .maxConcurrentCalls(limits.maxConcurrent())
                .maxWaitDuration(limits.queueWait())
                .build());
    }

    CircuitBreaker breaker() {
        return breaker;
    }

    /** Lets a call through, or says why not. The caller must report the outcome to the permit. */
    Permit admit(Optional<String> tool) throws RefusedException {
        if (tool.isPresent() && limits.perTool().isPresent()) {
            Limits.Rate rate = limits.perTool().get();
            Bucket bucket = toolBuckets.computeIfAbsent(tool.get(), t -> Bucket.builder()
                    .addLimit(Bandwidth.builder().capacity(rate.calls()).refillGreedy(rate.calls(), rate.period())
                            .build()).build());
            ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
            if (!probe.isConsumed()) {
                throw new RefusedException(new Refusal(ErrorCode.RATE_LIMITED, "This tool is called too often; retry later.",
                        Duration.ofNanos(probe.getNanosToWaitForRefill())));
            }
        }
        if (!breaker.tryAcquirePermission()) {
            Duration left = Duration.between(clock.instant(), openedAt.plus(limits.breaker().openFor()));
            throw new RefusedException(new Refusal(ErrorCode.UPSTREAM_ERROR,
                    "The upstream server is failing; calls to it are paused.",
                    left.isNegative() ? Duration.ZERO : left));
        }
        boolean entered;
        try {
            entered = bulkhead.tryAcquirePermission();
        } catch (RuntimeException e) {
            entered = false;
        }
        if (!entered) {
            breaker.releasePermission();
            throw new RefusedException(new Refusal(ErrorCode.RATE_LIMITED,
                    "The upstream server is busy; retry later.", Duration.ofSeconds(1)));
        }
        long start = System.nanoTime();
        return new Permit() {
            private boolean done;

            @Override
            public synchronized void succeeded() {
                if (!done) {
                    done = true;
                    bulkhead.onComplete();
                    breaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                }
            }

            @Override
            public synchronized void failed(Throwable cause) {
                if (!done) {
                    done = true;
                    bulkhead.onComplete();
                    breaker.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, cause);
                }
            }
        };
    }

    /** A call the guard refused; stackless, it is an answer, not a bug. */
    static final class RefusedException extends Exception {
        private final Refusal refusal;

        RefusedException(Refusal refusal) {
            super(refusal.message(), null, false, false);
            this.refusal = refusal;
        }

        Refusal refusal() {
            return refusal;
        }
    }
}
