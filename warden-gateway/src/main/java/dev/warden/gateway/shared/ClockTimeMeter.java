package dev.warden.gateway.shared;

import io.github.bucket4j.TimeMeter;
import java.time.Instant;
import java.time.InstantSource;

/**
 * Bucket4j's time read off the gateway's clock: when a rate limit's tokens come back is decided
 * by the same clock as every other expiry, so a test can move it instead of waiting. The gateway's
 * own limits and a shared store's (Redis, where the bucket's state is computed on the replica by
 * compare-and-swap, so replicas must keep their clocks in step) both read it.
 */
public record ClockTimeMeter(InstantSource clock) implements TimeMeter {

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
