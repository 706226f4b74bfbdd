package dev.warden.gateway.internal.limits;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Each client's share of one upstream's concurrent calls ({@code maxConcurrentPerClient}): at most
 * {@code perClient} of a client's calls hold a place at once; more wait their turn, first come
 * first served, up to the queue wait. The upstream's own limit counts every client together, so
 * without a share one client's burst would take the places (and the upstream's queue) ahead of
 * every other client's next call. A client's entry lives only while it has calls holding or
 * waiting for a place, so the map holds no more clients than have calls under way.
 */
final class ClientShares {

    /** A place held by one call: given back once, however many times {@link #release} is called. */
    interface Place {
        void release();
    }

    /** The place of a call held to no share (an unauthenticated stateless client's: {@code ClientProfile.shareKey}). */
    static final Place NONE = () -> { };

    /** One client's places, and how many of its calls hold or wait for one (the entry goes at zero). */
    private static final class Share {
        final Semaphore places;
        int users;

        Share(int perClient) {
            this.places = new Semaphore(perClient, true); // fair: the client's calls go in the order they came
        }
    }

    private final int perClient;
    private final Duration wait;
    private final Object lock = new Object();
    private final Map<ClientKey, Share> shares = new HashMap<>();

    ClientShares(int perClient, Duration wait) {
        this.perClient = perClient;
        this.wait = wait;
    }

    int perClient() {
        return perClient;
    }

    /** Whether {@link #enter} would not wait now for this client. A hint: another of its calls may take the place. */
    boolean freeFor(ClientKey client) {
        synchronized (lock) {
            Share share = shares.get(client);
            return share == null || (share.places.availablePermits() > 0 && !share.places.hasQueuedThreads());
        }
    }

    /**
     * A place for one of {@code client}'s calls, waiting behind its earlier calls up to the queue
     * wait; empty when none came free in time (or the waiting thread was interrupted: the call is
     * refused, as the upstream's own limit refuses it, with the interrupt kept).
     */
    Optional<Place> enter(ClientKey client) {
        Share share;
        synchronized (lock) {
            share = shares.computeIfAbsent(client, c -> new Share(perClient));
            share.users++;
        }
        boolean entered;
        try {
            entered = share.places.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            entered = false;
        }
        if (!entered) {
            leave(client, share);
            return Optional.empty();
        }
        AtomicBoolean released = new AtomicBoolean();
        return Optional.of(() -> {
            if (released.compareAndSet(false, true)) {
                share.places.release();
                leave(client, share);
            }
        });
    }

    private void leave(ClientKey client, Share share) {
        synchronized (lock) {
            if (--share.users == 0) {
                shares.remove(client, share);
            }
        }
    }
}
