package dev.warden.core.transport;

import java.time.Duration;
import java.util.Objects;

/**
 * How much a stream transport holds for a peer that is slow to read, and how long a sender waits for
 * room. Frames are queued and written by one writer thread, so a peer that stops reading fills the
 * queue, not the callers' threads: a request waits for room at most until its own deadline, anything
 * else at most {@code maxWait}, then fails with {@link SendTimeoutException}.
 *
 * @param maxQueuedBytes bytes queued and not yet written before senders wait; a frame larger than this
 *                       is still taken when the queue is empty
 * @param maxWait        how long a frame that is not a request waits for room in the queue
 */
public record OutgoingLimits(long maxQueuedBytes, Duration maxWait) {

    /** Far more than a reading peer ever lets pile up; a minute of a peer that reads nothing. */
    public static final OutgoingLimits DEFAULTS = new OutgoingLimits(16L * 1024 * 1024, Duration.ofSeconds(60));

    public OutgoingLimits {
        if (maxQueuedBytes < 1) {
            throw new IllegalArgumentException("maxQueuedBytes must be positive, got " + maxQueuedBytes);
        }
        Objects.requireNonNull(maxWait, "maxWait");
        if (maxWait.isNegative() || maxWait.isZero()) {
            throw new IllegalArgumentException("maxWait must be positive, got " + maxWait);
        }
    }
}
