package dev.warden.console.signin;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The console's signed-in browsers: a random id (the cookie) for each access token, kept here and
 * never sent to the browser. A session ends at the token's expiry (or {@link #MAX_LIFETIME}, the
 * shorter), at {@link #end}, or when {@link #MAX_SESSIONS} are open and a newer one needs room
 * (the one ending soonest goes). The token is still judged by the gateway's authenticator on every
 * request: a session only stands in for the header a browser cannot send.
 */
public final class Sessions {

    public static final int MAX_SESSIONS = 64;
    public static final Duration MAX_LIFETIME = Duration.ofHours(8);
    /** A token issued without {@code expires_in}: its session lasts this long at most. */
    public static final Duration UNSTATED_LIFETIME = Duration.ofHours(1);

    private static final SecureRandom RANDOM = new SecureRandom();

    /** One signed-in browser. */
    public record Session(String id, String accessToken, Instant ends) {
        public Session {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(accessToken, "accessToken");
            Objects.requireNonNull(ends, "ends");
        }

        @Override
        public String toString() {
            return "Session[ends=" + ends + "]"; // neither id nor token in logs
        }
    }

    private final Clock clock;
    private final Map<String, Session> open = new HashMap<>();

    public Sessions(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** A new session for {@code accessToken}, ending at its expiry or sooner. */
    public synchronized Session open(String accessToken, Optional<Instant> tokenExpires) {
        Instant now = clock.instant();
        Instant cap = now.plus(MAX_LIFETIME);
        Instant ends = tokenExpires.orElse(now.plus(UNSTATED_LIFETIME));
        ends = ends.isAfter(cap) ? cap : ends;
        open.values().removeIf(s -> !now.isBefore(s.ends()));
        if (open.size() >= MAX_SESSIONS) {
            open.values().stream().min(Comparator.comparing(Session::ends)).ifPresent(s -> open.remove(s.id()));
        }
        Session session = new Session(randomId(), accessToken, ends);
        open.put(session.id(), session);
        return session;
    }

    /** The live session of this id; an ended one is forgotten here. */
    public synchronized Optional<Session> find(String id) {
        Session s = open.get(id);
        if (s == null) {
            return Optional.empty();
        }
        if (!clock.instant().isBefore(s.ends())) {
            open.remove(id);
            return Optional.empty();
        }
        return Optional.of(s);
    }

    /** Signs the browser out. */
    public synchronized void end(String id) {
        open.remove(id);
    }

    public synchronized int size() {
        return open.size();
    }

    /** How long the browser should keep the cookie. */
    public Duration remaining(Session session) {
        Duration d = Duration.between(clock.instant(), session.ends());
        return d.isNegative() ? Duration.ZERO : d;
    }

    static String randomId() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
