package dev.warden.gateway.internal;

import dev.warden.gateway.config.Limits;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The per-client rate limit's buckets, by {@link ClientKey}: every session and stateless request
 * of one client spends the same bucket, and no client can spend another's by giving its name.
 * Bounded: past {@link #MAX} clients, the buckets that have refilled (as good as new) are dropped
 * first; only if all are in use does the map start afresh.
 */
public final class ClientRates {

    static final int MAX = 10_000;

    private final Optional<Limits.Rate> rate;
    /** When the buckets refill. */
    private final InstantSource clock;
    private final ConcurrentHashMap<ClientKey, Bucket> byClient = new ConcurrentHashMap<>();

    public ClientRates(Optional<Limits.Rate> rate, InstantSource clock) {
        this.rate = rate;
        this.clock = clock;
    }

    /** The bucket of this client, shared by all its connections; none when there is no per-client rate. */
    Optional<Bucket> of(ClientKey client) {
        if (rate.isEmpty()) {
            return Optional.empty();
        }
        Limits.Rate r = rate.get();
        if (byClient.size() >= MAX && !byClient.containsKey(client)) {
            byClient.values().removeIf(b -> b.getAvailableTokens() >= r.calls());
            if (byClient.size() >= MAX) {
                byClient.clear();
            }
        }
        return Optional.of(byClient.computeIfAbsent(client, c -> Bucket.builder().addLimit(Bandwidth.builder()
                .capacity(r.calls()).refillGreedy(r.calls(), r.period()).build())
                .withCustomTimePrecision(new ClockTimeMeter(clock)).build()));
    }
}
