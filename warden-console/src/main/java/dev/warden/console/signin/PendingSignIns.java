package dev.warden.console.signin;

import java.net.URI;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Sign-ins sent to the authorization server and not yet back, by the random nonce the browser that
 * started each holds in its {@link PendingCookie}: the {@code state}, the PKCE verifier, the redirect
 * URI used and the console page to return to stay here, so the callback trusts nothing the browser
 * brings but the nonce, the state and the code, and another browser (no nonce) cannot finish it.
 * Each is taken once, within {@link #LIFETIME}. At most {@link #MAX_PENDING} are kept: expired ones
 * go first, then the oldest (a flood of anonymous page loads must fill far more than a few dozen
 * slots before a real sign-in under way is dropped).
 */
public final class PendingSignIns {

    public static final int MAX_PENDING = 4096;
    public static final Duration LIFETIME = Duration.ofMinutes(10);

    /** One sign-in under way. */
    public record Pending(String state, String verifier, URI redirectUri, String returnTo, Instant started) {
        public Pending {
            Objects.requireNonNull(state, "state");
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
    private final Map<String, Pending> byNonce = new LinkedHashMap<>(); // insertion order: oldest first

    public PendingSignIns(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** A fresh random nonce for the browser's {@link PendingCookie}. */
    public static String newNonce() {
        return Sessions.randomId();
    }

    public synchronized void add(String nonce, String state, String verifier, URI redirectUri, String returnTo) {
        Instant now = clock.instant();
        if (byNonce.size() >= MAX_PENDING) {
            byNonce.values().removeIf(p -> expired(p, now));
        }
        while (byNonce.size() >= MAX_PENDING) {
            byNonce.remove(byNonce.keySet().iterator().next());
        }
        byNonce.put(nonce, new Pending(state, verifier, redirectUri, returnTo, now));
    }

    /**
     * The sign-in this browser's nonce started, once, when the callback's {@code state} is its own
     * (compared in constant time); empty for an unknown, used or expired nonce or another state (a
     * forged state does not use up the browser's own sign-in).
     */
    public synchronized Optional<Pending> take(String nonce, String state) {
        Pending p = byNonce.get(nonce);
        if (p == null) {
            return Optional.empty();
        }
        if (expired(p, clock.instant())) {
            byNonce.remove(nonce);
            return Optional.empty();
        }
        if (!MessageDigest.isEqual(p.state().getBytes(StandardCharsets.UTF_8), state.getBytes(StandardCharsets.UTF_8))) {
            return Optional.empty();
        }
        byNonce.remove(nonce);
        return Optional.of(p);
    }

    public synchronized int size() {
        return byNonce.size();
    }

    private static boolean expired(Pending p, Instant now) {
        return !now.isBefore(p.started().plus(LIFETIME));
    }
}
