package dev.warden.gateway.internal;

import dev.warden.gateway.Limits;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The per-client rate limit's buckets. A session-based client has one for its connection; a
 * stateless client has no connection that outlives a request, so its bucket is kept here by the
 * name it gives ({@code clientInfo}, self-declared: a limit between well-behaved clients, not a
 * defence against one that renames itself). Bounded: past {@link #MAX} names they start afresh.
 */
public final class ClientRates {

    static final int MAX = 10_000;

    private final Optional<Limits.Rate> rate;
    private final ConcurrentHashMap<String, Bucket> byName = new ConcurrentHashMap<>();

    public ClientRates(Optional<Limits.Rate> rate) {
        this.rate = rate;
    }

    /** A bucket of a connection's own. */
    Optional<Bucket> fresh() {
        return rate.map(r -> Bucket.builder().addLimit(Bandwidth.builder().capacity(r.calls())
                .refillGreedy(r.calls(), r.period()).build()).build());
    }

    /** The bucket of the stateless client of this name, shared by its requests. */
    Optional<Bucket> named(String name) {
        if (rate.isEmpty()) {
            return Optional.empty();
        }
        if (byName.size() >= MAX && !byName.containsKey(name)) {
            byName.clear();
        }
        return Optional.of(byName.computeIfAbsent(name, n -> fresh().orElseThrow()));
    }
}
