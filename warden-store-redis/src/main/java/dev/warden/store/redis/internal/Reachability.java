package dev.warden.store.redis.internal;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/**
 * Whether Redis is worth asking now. After a failure it is left alone for {@link #PAUSE} (by the
 * clock), so that while it is away a call does not pay a connection attempt or a timeout each;
 * then the next call tries it again. The first failure and the recovery are logged, once each.
 */
public final class Reachability {

    static final Duration PAUSE = Duration.ofSeconds(1);
    private static final System.Logger LOG = System.getLogger("dev.warden.store.redis");

    private final InstantSource clock;
    private final String where;
    private volatile Instant pausedUntil = Instant.MIN;
    private volatile boolean down;

    /** @param where host and port, never credentials: what the log names */
    public Reachability(InstantSource clock, String where) {
        this.clock = clock;
        this.where = where;
    }

    public boolean worthTrying() {
        return !clock.instant().isBefore(pausedUntil);
    }

    public void failed(String what, RuntimeException e) {
        pausedUntil = clock.instant().plus(PAUSE);
        if (!down) {
            down = true;
            // The exception's class only: a driver's message may carry the address with its credentials.
            LOG.log(System.Logger.Level.WARNING, "Redis at " + where + " cannot be reached (" + e.getClass().getSimpleName()
                    + "); " + what);
        }
    }

    public void worked() {
        if (down) {
            down = false;
            LOG.log(System.Logger.Level.INFO, "Redis at " + where + " answers again");
        }
    }

    public boolean down() {
        return down;
    }
}
