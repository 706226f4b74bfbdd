package dev.warden.console.signin;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Sign-ins sent to the authorization server and not yet back, by their {@code state}: the PKCE
 * verifier, the redirect URI used and the console page to return to stay here, so the callback
 * trusts nothing the browser brings but the state and the code. Each is taken once, within
 * {@link #LIFETIME}; at most {@link #MAX_PENDING} are kept (the oldest goes first).
 */
public final class PendingSignIns {

    public static final int MAX_PENDING = 64;
    public static final Duration LIFETIME = Duration.ofMinutes(10);

    /** One sign-in under way. */
    public record Pending(String verifier, URI redirectUri, String returnTo, Instant started) {
        public Pending {
            Objects.requireNonNull(verifier, "verifier");
            Objects.requireNonNull(redirectUri, "redirectUri");
            Objects.requireNonNull(returnTo, "returnTo");
            Objects.requireNonNull(started, "started");
        }

        @Override
        public String toString() {
            return "Pending[returnTo=" + returnTo + "]";
        }
    }

    private final Clock clock;
    private final Map<String, Pending> byState = new LinkedHashMap<>(); // insertion order: oldest first

    public PendingSignIns(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public synchronized void add(String state, String verifier, URI redirectUri, String returnTo) {
        Instant now = clock.instant();
        byState.values().removeIf(p -> expired(p, now));
        while (byState.size() >= MAX_PENDING) {
            byState.remove(byState.keySet().iterator().next());
        }
        byState.put(state, new Pending(verifier, redirectUri, returnTo, now));
    }

    /** The sign-in this state started, once; empty for an unknown, used or expired state. */
    public synchronized Optional<Pending> take(String state) {
        Pending p = byState.remove(state);
        return p == null || expired(p, clock.instant()) ? Optional.empty() : Optional.of(p);
    }

    private static boolean expired(Pending p, Instant now) {
        return !now.isBefore(p.started().plus(LIFETIME));
    }
}
