package dev.warden.store.redis.internal;

import io.github.bucket4j.TimeMeter;
import java.time.Instant;
import java.time.InstantSource;

/**
 * Bucket4j's time read off the gateway's clock. With Redis the bucket's state is computed on the
 * replica (compare-and-swap), so it is this clock, not Redis', that refills: replicas must keep
 * their clocks in step (NTP); one ahead by d gives d's worth of extra tokens at most.
 */
public record ClockMeter(InstantSource clock) implements TimeMeter {

    @Override
    public long currentTimeNanos() {
        Instant now = clock.instant();
        return Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000_000L), now.getNano());
    }

    @Override
    public boolean isWallClockBased() {
        return true;
    }
}
