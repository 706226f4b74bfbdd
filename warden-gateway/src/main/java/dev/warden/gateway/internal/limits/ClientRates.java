package dev.warden.gateway.internal.limits;

import dev.warden.gateway.config.Limits;
import dev.warden.gateway.shared.ClockTimeMeter;
import dev.warden.gateway.shared.SharedRates;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Base64;
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

    /** Counted with the other replicas, when there are (a client known only by its connection never is). */
    private final Optional<SharedRates> shared;

    /** One call taken from a client's rate: empty if it may call, else how long until it may. */
    @FunctionalInterface
    public interface Rated {
        Optional<Duration> take();
    }

    public ClientRates(Optional<Limits.Rate> rate, InstantSource clock) {
        this(rate, clock, Optional.empty());
    }

    public ClientRates(Optional<Limits.Rate> rate, InstantSource clock, Optional<SharedRates> shared) {
        this.rate = rate;
        this.clock = clock;
        this.shared = shared;
    }

    /** The rate of this client, shared by all its connections (and replicas); none when there is no per-client rate. */
    public Optional<Rated> of(ClientKey client) {
        if (rate.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> scope = scope(client);
        if (shared.isPresent() && scope.isPresent()) {
            SharedRates rates = shared.get();
            Limits.Rate r = rate.get();
            String s = scope.get();
            return Optional.of(() -> rates.take(s, r));
        }
        return bucket(client).map(b -> () -> {
            var probe = b.tryConsumeAndReturnRemaining(1);
            return probe.isConsumed() ? Optional.empty() : Optional.of(Duration.ofNanos(probe.getNanosToWaitForRefill()));
        });
    }

    /**
     * The client's name in the shared store: a subject by a digest of its issuer and subject (a
     * fixed length, and no separator a subject could smuggle in); a connection has none (its number
     * means nothing to another replica).
     */
    static Optional<String> scope(ClientKey client) {
        return switch (client) {
            case ClientKey.Subject s -> Optional.of("client:sub:" + digest(s.kind() + "\n" + s.issuer() + "\n" + s.subject()));
            case ClientKey.Address a -> Optional.of("client:addr:" + a.address());
            case ClientKey.Unknown u -> Optional.of("client:unknown");
            case ClientKey.Connection c -> Optional.empty();
        };
    }

    private static String digest(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(d).substring(0, 22);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is unavailable", e);
        }
    }

    /** This process's own bucket for the client. */
    private Optional<Bucket> bucket(ClientKey client) {
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
