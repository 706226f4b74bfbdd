package dev.warden.core.segment;

import java.time.Duration;
import java.util.Objects;

/**
 * How much of a file store Warden keeps: at most {@code maxBytes} on disk and nothing older than
 * {@code maxAge}; the oldest files go first. Applied when a store opens and as it writes.
 */
public record Retention(long maxBytes, Duration maxAge) {

    /** The smallest total a store may be given: a few segments' worth, so one record always fits. */
    public static final long MIN_BYTES = 64 * 1024;

    /** 256 MiB and 14 days: a disk does not fill, and two weeks of failures can still be looked up. */
    public static final Retention DEFAULT = new Retention(256L * 1024 * 1024, Duration.ofDays(14));

    public Retention {
        Objects.requireNonNull(maxAge, "maxAge");
        if (maxBytes < MIN_BYTES) {
            throw new IllegalArgumentException("retention maxBytes must be at least " + MIN_BYTES + ", got " + maxBytes);
        }
        if (maxAge.isNegative() || maxAge.isZero()) {
            throw new IllegalArgumentException("retention maxAge must be positive, got " + maxAge);
        }
    }

    public Retention withMaxBytes(long maxBytes) {
        return new Retention(maxBytes, maxAge);
    }

    public Retention withMaxAge(Duration maxAge) {
        return new Retention(maxBytes, maxAge);
    }
}
