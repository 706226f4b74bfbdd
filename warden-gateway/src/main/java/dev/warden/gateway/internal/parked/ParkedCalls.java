package dev.warden.gateway.internal.parked;

import dev.warden.gateway.internal.limits.ClientKey;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The gateway's parked calls ({@link ParkedCall}), by token: shared by all client connections,
 * since a stateless client's next round arrives on a connection of its own. Each holds a place
 * among its upstream's concurrent calls, so it is bounded in all and per client ({@link ClientKey}),
 * and a call parked past its time is abandoned (its upstream request cancelled, its place given
 * back) by the next {@link #sweep()}: the gateway sweeps before admitting any call, and a watcher
 * sweeps in the background, so expiry never waits for another call to be parked.
 */
public final class ParkedCalls {

    /** Which bound a call could not be parked under. */
    public enum Full {
        /** The gateway's total. */
        GATEWAY,
        /** The client's share. */
        CLIENT,
        /** The upstream's share: half its concurrent calls, so parked calls never take all of them. */
        UPSTREAM
    }

    private record Parked(ParkedCall call, ClientKey client, Instant until) {
    }

    private final InstantSource clock;
    private final ParkedTokens tokens;
    private final int total;
    private final int perClient;
    private final Object lock = new Object();
    private final Map<String, Parked> calls = new HashMap<>();
    private final Map<ClientKey, Integer> byClient = new HashMap<>();
    private final Map<String, Integer> byUpstream = new HashMap<>();
    /** The earliest expiry of a parked call (or later): until then a sweep has nothing to do. */
    private volatile Instant nextExpiry = Instant.MAX;

    public ParkedCalls(InstantSource clock, int total, int perClient) {
        this(clock, total, perClient, ParkedTokens.local());
    }

    /** @param tokens the request states handed out: among several replicas, they name this one */
    public ParkedCalls(InstantSource clock, int total, int perClient, ParkedTokens tokens) {
        this.tokens = java.util.Objects.requireNonNull(tokens, "tokens");
        if (total < 1 || perClient < 1) {
            throw new IllegalArgumentException("parked calls must be at least 1 in all and per client");
        }
        this.clock = clock;
        this.total = total;
        this.perClient = perClient;
    }

    /**
     * Parks {@code call} for {@code parkFor}; empty when parked, else the bound that is reached.
     * {@code upstreamShare} is how many calls may wait on the call's upstream: each holds one of its
     * concurrent places, and clients that never come back must leave places for those that call.
     */
    public Optional<Full> park(ParkedCall call, ClientKey client, Duration parkFor, int upstreamShare) {
        sweep();
        Instant until = clock.instant().plus(parkFor);
        synchronized (lock) {
            if (calls.size() >= total) {
                return Optional.of(Full.GATEWAY);
            }
            if (byClient.getOrDefault(client, 0) >= perClient) {
                return Optional.of(Full.CLIENT);
            }
            if (byUpstream.getOrDefault(call.upstreamName(), 0) >= upstreamShare) {
                return Optional.of(Full.UPSTREAM);
            }
            calls.put(call.token(), new Parked(call, client, until));
            byClient.merge(client, 1, Integer::sum);
            byUpstream.merge(call.upstreamName(), 1, Integer::sum);
            if (until.isBefore(nextExpiry)) {
                nextExpiry = until;
            }
        }
        return Optional.empty();
    }

    /**
     * The call parked under this token, taken out; none if there is none, or it expired (then it is
     * abandoned). A call an authenticated subject parked is taken only by the same subject: for any
     * other, it is as if there were none (and it stays for its owner), as another subject's
     * session id answers 404.
     */
    public Optional<ParkedCall> take(String token, ClientKey requester) {
        Parked parked;
        synchronized (lock) {
            parked = calls.get(token);
            if (parked == null || parked.client() instanceof ClientKey.Subject && !parked.client().equals(requester)) {
                return Optional.empty();
            }
            remove(token, parked);
        }
        if (expired(parked, clock.instant())) {
            parked.call().abandon("The client did not come back with the input in time");
            return Optional.empty();
        }
        return Optional.of(parked.call());
    }

    /**
     * Whether a call is parked under this token now (it stays parked): what lets a round another
     * replica forwards be served here at all. Who may take it is still {@link #take}'s to decide.
     */
    public boolean holds(String token) {
        synchronized (lock) {
            return calls.containsKey(token);
        }
    }

    /** The request states this gateway's parked calls hand out. */
    public ParkedTokens tokens() {
        return tokens;
    }

    public void forget(ParkedCall call) {
        synchronized (lock) {
            Parked parked = calls.get(call.token());
            if (parked != null && parked.call() == call) {
                remove(call.token(), parked);
            }
        }
    }

    /** Calls parked now (for the metrics). */
    public int size() {
        synchronized (lock) {
            return calls.size();
        }
    }

    /**
     * Abandons every call parked past its time, giving back its place. Cheap when none is due (a
     * clock reading), so it runs before every admission.
     */
    public void sweep() {
        Instant now = clock.instant();
        if (now.isBefore(nextExpiry)) {
            return;
        }
        List<ParkedCall> expired = new ArrayList<>();
        synchronized (lock) {
            Instant next = Instant.MAX;
            for (Iterator<Map.Entry<String, Parked>> it = calls.entrySet().iterator(); it.hasNext(); ) {
                Parked parked = it.next().getValue();
                if (expired(parked, now)) {
                    it.remove();
                    byClient.computeIfPresent(parked.client(), (c, n) -> n <= 1 ? null : n - 1);
                    byUpstream.computeIfPresent(parked.call().upstreamName(), (u, n) -> n <= 1 ? null : n - 1);
                    expired.add(parked.call());
                } else if (parked.until().isBefore(next)) {
                    next = parked.until();
                }
            }
            nextExpiry = next;
        }
        // Outside the lock: cancelling tells the upstream, which is I/O.
        expired.forEach(call -> call.abandon("The client did not come back with the input"));
    }

    private static boolean expired(Parked parked, Instant now) {
        return now.isAfter(parked.until());
    }

    private void remove(String token, Parked parked) {
        calls.remove(token);
        byClient.computeIfPresent(parked.client(), (c, n) -> n <= 1 ? null : n - 1);
        byUpstream.computeIfPresent(parked.call().upstreamName(), (u, n) -> n <= 1 ? null : n - 1);
    }
}
