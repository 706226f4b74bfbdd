package dev.warden.gateway.internal;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The gateway's parked calls ({@link ParkedCall}), by token: shared by all client connections,
 * since a stateless client's next round arrives on a connection of its own. Bounded; a call parked
 * past its time is abandoned (its upstream request cancelled) when the next one is parked.
 */
public final class ParkedCalls {

    static final int MAX = 10_000;

    private final ConcurrentHashMap<String, ParkedCall> calls = new ConcurrentHashMap<>();

    /** False when full: the upstream's question is then refused instead of parked. */
    boolean park(ParkedCall call) {
        sweep();
        if (calls.size() >= MAX) {
            return false;
        }
        calls.put(call.token(), call);
        return true;
    }

    Optional<ParkedCall> take(String token) {
        return Optional.ofNullable(calls.remove(token));
    }

    void forget(ParkedCall call) {
        calls.remove(call.token(), call);
    }

    int size() {
        return calls.size();
    }

    void sweep() {
        long now = System.nanoTime();
        calls.values().removeIf(call -> {
            if (call.expired(now)) {
                call.abandon("The client did not come back with the input");
                return true;
            }
            return false;
        });
    }
}
