package dev.warden.gateway.internal.limits;

import dev.warden.gateway.shared.SharedBreakers;
import dev.warden.gateway.shared.SharedRates;
import java.util.Objects;
import java.util.Optional;

/**
 * What this gateway shares with its other replicas: rate limits counted together and breakers
 * one opens for all. {@link #LOCAL} (nothing shared) is the single-process default.
 */
public record SharedState(Optional<SharedRates> rates, SharedBreakers breakers) {

    public static final SharedState LOCAL = new SharedState(Optional.empty(), SharedBreakers.none());

    public SharedState {
        Objects.requireNonNull(rates, "rates");
        Objects.requireNonNull(breakers, "breakers");
    }
}
