package dev.warden.http.server;

import java.util.List;

/**
 * What decides, beyond the endpoint's own checks, whether the server takes a new request now, and
 * what its readiness probe answers: a gateway that is draining refuses new requests (503 with
 * {@code Retry-After}) while those it admitted finish, and reports itself not ready. Responses and
 * notifications a client posts (an elicitation's answer, a cancellation) are always delivered, so
 * that calls in flight can finish.
 */
public interface Admission {

    /** Whether a new request (an initialize, a call) may start; each {@code true} is matched by one {@link #exit}. */
    boolean enter();

    /** A request admitted by {@link #enter} has been answered (or its client went away). */
    void exit();

    /** The names of the readiness checks that fail now; empty when ready. Names only: no address, no detail. */
    List<String> unready();

    /** Every request admitted, always ready: a server with nothing to drain and nothing to depend on. */
    static Admission always() {
        return new Admission() {
            @Override
            public boolean enter() {
                return true;
            }

            @Override
            public void exit() {
            }

            @Override
            public List<String> unready() {
                return List.of();
            }
        };
    }
}
