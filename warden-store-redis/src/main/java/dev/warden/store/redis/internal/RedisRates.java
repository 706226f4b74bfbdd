package dev.warden.store.redis.internal;

import dev.warden.gateway.config.Limits;
import dev.warden.gateway.config.Redis;
import dev.warden.gateway.shared.ClockTimeMeter;
import dev.warden.gateway.shared.SharedRates;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Rate limits counted in Redis by every replica together: one Bucket4j bucket per scope, kept in
 * Redis and updated by compare-and-swap (a GET, then an EVAL that writes only if nobody wrote in
 * between; retried if someone did), so N calls per period hold across replicas exactly, whatever
 * the interleaving. A bucket expires once it would have refilled, plus {@link #KEEP}: an idle
 * client leaves nothing behind.
 *
 * <p>While Redis cannot be reached: {@link Redis.WhenDown#OPEN} counts each scope in a bucket of
 * this replica's own (the limit becomes N per replica, and calls keep flowing); {@link
 * Redis.WhenDown#CLOSED} refuses, retry after a second. Either way Redis is tried again after
 * {@link Reachability#PAUSE}, not on every call.
 */
public final class RedisRates implements SharedRates {

    /** How long a full bucket is kept after it refilled (it would be made again as full anyway). */
    static final Duration KEEP = Duration.ofSeconds(10);
    /** Buckets kept locally while Redis is away, at most; beyond, they start afresh. */
    static final int MAX_LOCAL = 10_000;
    static final Duration CLOSED_RETRY = Duration.ofSeconds(1);

    private final ProxyManager<String> buckets;
    private final Keys keys;
    private final InstantSource clock;
    private final Redis.WhenDown whenDown;
    private final Reachability reachability;
    private final ConcurrentHashMap<Limits.Rate, BucketConfiguration> configs = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Bucket> local = new ConcurrentHashMap<>();

    public RedisRates(StatefulRedisConnection<String, byte[]> connection, Keys keys, InstantSource clock,
            Redis.WhenDown whenDown, Reachability reachability) {
        this.buckets = Bucket4jLettuce.casBasedBuilder(connection)
                .clientClock(new ClockTimeMeter(clock))
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(KEEP))
                .build();
        this.keys = keys;
        this.clock = clock;
        this.whenDown = whenDown;
        this.reachability = reachability;
    }

    @Override
    public Optional<Duration> take(String scope, Limits.Rate rate) {
        if (reachability.worthTrying()) {
            try {
                ConsumptionProbe probe = buckets.builder().build(keys.rate(scope, rate), () -> config(rate))
                        .tryConsumeAndReturnRemaining(1);
                reachability.worked();
                return answer(probe);
            } catch (RuntimeException e) {
                reachability.failed(whenDown == Redis.WhenDown.OPEN
                        ? "rate limits are counted by this replica alone until it is back"
                        : "tool calls are refused as RATE_LIMITED until it is back (rateLimitsWhenDown: closed)", e);
            }
        }
        if (whenDown == Redis.WhenDown.CLOSED) {
            return Optional.of(CLOSED_RETRY);
        }
        String key = keys.rate(scope, rate);
        if (local.size() >= MAX_LOCAL && !local.containsKey(key)) {
            local.clear();
        }
        Bucket own = local.computeIfAbsent(key, k -> Bucket.builder().addLimit(bandwidth(rate))
                .withCustomTimePrecision(new ClockTimeMeter(clock)).build());
        return answer(own.tryConsumeAndReturnRemaining(1));
    }

    private static Optional<Duration> answer(ConsumptionProbe probe) {
        return probe.isConsumed() ? Optional.empty() : Optional.of(Duration.ofNanos(probe.getNanosToWaitForRefill()));
    }

    private BucketConfiguration config(Limits.Rate rate) {
        return configs.computeIfAbsent(rate, r -> BucketConfiguration.builder().addLimit(bandwidth(r)).build());
    }

    /** The same bandwidth as a single gateway's (ClientRates, Guard): N at once, refilled greedily over the period. */
    private static Bandwidth bandwidth(Limits.Rate rate) {
        return Bandwidth.builder().capacity(rate.calls()).refillGreedy(rate.calls(), rate.period()).build();
    }
}
