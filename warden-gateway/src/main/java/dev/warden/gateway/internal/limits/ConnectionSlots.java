package dev.warden.gateway.internal.limits;

import dev.warden.core.error.TransportException;
import java.util.concurrent.Semaphore;

/**
 * The connections (for a stdio server, processes) the gateway may hold open to one upstream at
 * once, across its shared link and every per-client link: {@code Limits.maxConnections}. A
 * connection that would go beyond is refused, never queued (a client's initialize would hang).
 */
public final class ConnectionSlots {

    private final String upstream;
    private final int max;
    private final Semaphore free;

    public ConnectionSlots(String upstream, int max) {
        if (max < 1) {
            throw new IllegalArgumentException("maxConnections must be at least 1, got " + max);
        }
        this.upstream = upstream;
        this.max = max;
        this.free = new Semaphore(max);
    }

    /** Takes a place for one more connection, or throws {@link AtCapacity}. */
    public void take() {
        if (!free.tryAcquire()) {
            throw new AtCapacity(upstream, max);
        }
    }

    /** A connection was closed (or never made): its place is free. Once per {@link #take()}. */
    public void give() {
        free.release();
    }

    public int inUse() {
        return max - free.availablePermits();
    }

    /** No place for another connection; its message is the gateway's own words (trusted). Stackless. */
    public static final class AtCapacity extends TransportException {
        AtCapacity(String upstream, int max) {
            super("The gateway already holds " + max + " connections to the upstream server " + upstream
                    + " (its maxConnections); retry later.", null, false);
        }
    }
}
