package dev.warden.gateway.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Notifications held until the client has said it is initialized (an upstream may talk first);
 * a stateless client has nothing to wait for.
 */
final class HeldNotifications {

    static final int MAX_HELD = 256;

    private final List<Runnable> held = new ArrayList<>();
    private boolean ready;

    /** Holds {@code send} if the client is not ready (at most {@link #MAX_HELD}); false if it may go now. */
    boolean held(Runnable send) {
        synchronized (held) {
            if (ready) {
                return false;
            }
            if (held.size() < MAX_HELD) {
                held.add(send);
            }
            return true;
        }
    }

    /** The client said it is initialized: what was held goes, in order. */
    void ready() {
        List<Runnable> flush;
        synchronized (held) {
            ready = true;
            flush = List.copyOf(held);
            held.clear();
        }
        flush.forEach(Runnable::run);
    }

    /** A stateless client: no initialized notification comes, and nothing held is for it. */
    void readyWithoutFlush() {
        synchronized (held) {
            ready = true;
            held.clear();
        }
    }
}
