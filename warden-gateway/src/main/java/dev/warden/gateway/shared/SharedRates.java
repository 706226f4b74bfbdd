package dev.warden.gateway.shared;

import dev.warden.gateway.config.Limits;
import java.time.Duration;
import java.util.Optional;

/**
 * Rate limits counted by every replica of the gateway together (a store several processes share,
 * e.g. Redis), instead of by each process alone. Without one, each gateway keeps its buckets in
 * memory, as a single process always has.
 *
 * <p>Scopes are the gateway's own names: {@code client:sub:<digest>} (an authenticated subject),
 * {@code client:addr:<ip>} (a client known by its address), {@code tool:<upstream>:<tool>} (a tool's
 * limit for all clients together).
 */
public interface SharedRates {

    /**
     * Takes one call from the bucket of {@code scope}, which holds {@code rate}: empty when the call
     * may go, else how long until one may. Never throws: a store that cannot be reached is the
     * implementation's to decide (and document), as admit or refuse.
     */
    Optional<Duration> take(String scope, Limits.Rate rate);
}
