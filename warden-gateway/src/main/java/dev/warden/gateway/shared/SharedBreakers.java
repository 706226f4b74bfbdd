package dev.warden.gateway.shared;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Breakers one replica opened, made known to the others: a replica that sees an upstream (or one
 * of its tools) fail pauses it for every replica, so the others stop sending calls that would fail
 * too. Only the opening is shared: each replica still counts its own calls, and tries the upstream
 * again after the pause on its own.
 *
 * <p>{@link #openUntil} is asked on every call, so it must answer from memory; what reaches the
 * store is the rare {@link #opened}.
 */
public interface SharedBreakers {

    /** A breaker is open until {@code until}, because of {@code why} (a sentence for the refusal, no secrets). */
    record Opening(Instant until, String why) {
        public Opening {
            Objects.requireNonNull(until, "until");
            Objects.requireNonNull(why, "why");
        }
    }

    /**
     * This replica's breaker {@code name} ({@code <upstream>} for a server's, {@code
     * <upstream>/<tool>} for a tool's) opened: tell the others. Never throws.
     */
    void opened(String name, Opening opening);

    /** The opening still in force at {@code now} that some replica announced for {@code name}, if any. */
    Optional<Opening> openUntil(String name, Instant now);

    /** None shared: each replica's breakers are its own (the single-process default). */
    static SharedBreakers none() {
        return None.INSTANCE;
    }

    /** The single-process default. */
    enum None implements SharedBreakers {
        INSTANCE;

        @Override
        public void opened(String name, Opening opening) {
        }

        @Override
        public Optional<Opening> openUntil(String name, Instant now) {
            return Optional.empty();
        }
    }
}
