package dev.warden.console.signin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.testkit.MutableClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The browser sign-in's parts, on a clock the test moves: the cookie, the sessions, the pending sign-ins. */
class SignInPartsTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final URI CALLBACK = URI.create("http://127.0.0.1:9/login/callback");

    @Test
    void theCookieIsHttpOnlyStrictForTheWholeConsoleAndSecureOverHttps() {
        assertThat(SessionCookie.set("abc", Duration.ofSeconds(300), false))
                .isEqualTo("warden_console=abc; Path=/; Max-Age=300; HttpOnly; SameSite=Strict");
        assertThat(SessionCookie.set("abc", Duration.ofSeconds(300), true)).endsWith("; Secure");
        assertThat(SessionCookie.clear(true)).isEqualTo("warden_console=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict; Secure");
    }

    @Test
    void onlyOurCookieWithABase64UrlValueIsRead() {
        assertThat(SessionCookie.read(List.of("a=1; warden_console=Ab-_9; b=2"))).contains("Ab-_9");
        assertThat(SessionCookie.read(List.of("other=1", "warden_console=x"))).contains("x");
        assertThat(SessionCookie.read(List.of("warden_console=a\"b", "xwarden_console=abc"))).isEmpty();
        assertThat(SessionCookie.read(List.of("warden_console=" + "a".repeat(65)))).isEmpty();
        assertThat(SessionCookie.read(List.of())).isEmpty();
    }

    @Test
    void aSessionEndsWhenItsTokenExpiresAndNeverOutlivesTheCap() {
        MutableClock clock = new MutableClock(T0);
        Sessions sessions = new Sessions(clock);
        Sessions.Session s = sessions.open("token", Optional.of(T0.plusSeconds(300)));
        assertThat(s.id()).hasSize(43);
        assertThat(sessions.remaining(s)).isEqualTo(Duration.ofSeconds(300));
        clock.advance(Duration.ofSeconds(299));
        assertThat(sessions.find(s.id())).map(Sessions.Session::accessToken).contains("token");
        clock.advance(Duration.ofSeconds(1));
        assertThat(sessions.find(s.id())).as("at the token's expiry").isEmpty();

        assertThat(sessions.open("t", Optional.of(clock.instant().plus(Duration.ofDays(30)))).ends())
                .isEqualTo(clock.instant().plus(Sessions.MAX_LIFETIME));
        assertThat(sessions.open("t", Optional.empty()).ends()).isEqualTo(clock.instant().plus(Sessions.UNSTATED_LIFETIME));
    }

    @Test
    void sessionsAreBoundedAndTheOneEndingSoonestMakesRoom() {
        MutableClock clock = new MutableClock(T0);
        Sessions sessions = new Sessions(clock);
        Sessions.Session soonest = sessions.open("first", Optional.of(T0.plusSeconds(10)));
        Set<String> ids = new HashSet<>();
        for (int i = 1; i < Sessions.MAX_SESSIONS; i++) {
            ids.add(sessions.open("t" + i, Optional.of(T0.plusSeconds(600))).id());
        }
        assertThat(sessions.size()).isEqualTo(Sessions.MAX_SESSIONS);
        Sessions.Session newest = sessions.open("newest", Optional.of(T0.plusSeconds(600)));
        assertThat(sessions.size()).isEqualTo(Sessions.MAX_SESSIONS);
        assertThat(sessions.find(soonest.id())).isEmpty();
        assertThat(sessions.find(newest.id())).isPresent();
        assertThat(ids).doesNotContain(newest.id());
    }

    @Test
    void anEndedSessionIsGone() {
        Sessions sessions = new Sessions(new MutableClock(T0));
        Sessions.Session s = sessions.open("token", Optional.of(T0.plusSeconds(300)));
        sessions.end(s.id());
        assertThat(sessions.find(s.id())).isEmpty();
    }

    @Test
    void aStateIsTakenOnceAndOnlyWithinItsLifetime() {
        MutableClock clock = new MutableClock(T0);
        PendingSignIns pending = new PendingSignIns(clock);
        pending.add("n1", "s1", "v1", CALLBACK, "/incidents");
        assertThat(pending.take("unknown", "s1")).isEmpty();
        assertThat(pending.take("n1", "s1")).map(PendingSignIns.Pending::verifier).contains("v1");
        assertThat(pending.take("n1", "s1")).as("a state is used once").isEmpty();

        pending.add("n2", "s2", "v2", CALLBACK, "/");
        clock.advance(PendingSignIns.LIFETIME);
        assertThat(pending.take("n2", "s2")).as("expired").isEmpty();
    }

    @Test
    void pendingSignInsAreBoundedOldestFirst() {
        PendingSignIns pending = new PendingSignIns(new MutableClock(T0));
        for (int i = 0; i <= PendingSignIns.MAX_PENDING; i++) {
            pending.add("n" + i, "s" + i, "v" + i, CALLBACK, "/");
        }
        assertThat(pending.take("n0", "s0")).isEmpty();
        assertThat(pending.take("n1", "s1")).isPresent();
        assertThat(pending.take("n" + PendingSignIns.MAX_PENDING, "s" + PendingSignIns.MAX_PENDING)).isPresent();
    }

    @Test
    void aSignInIsTakenOnlyByItsBrowsersNonceWithItsOwnState() {
        PendingSignIns pending = new PendingSignIns(new MutableClock(T0));
        pending.add("nonce", "state", "v", CALLBACK, "/");
        assertThat(pending.take("another browser", "state")).isEmpty();
        assertThat(pending.take("nonce", "another state")).isEmpty();
        assertThat(pending.take("nonce", "state")).as("a forged state does not use it up").isPresent();
        assertThat(pending.take("nonce", "state")).isEmpty();
        assertThat(PendingSignIns.newNonce()).hasSize(43).isNotEqualTo(PendingSignIns.newNonce());
    }

    @Test
    void aFloodOfAnonymousPageLoadsDoesNotDropASignInUnderWay() {
        MutableClock clock = new MutableClock(T0);
        PendingSignIns pending = new PendingSignIns(clock);
        pending.add("real", "state", "v", CALLBACK, "/");
        for (int i = 0; i < 1000; i++) {
            pending.add("flood" + i, "s" + i, "v", CALLBACK, "/");
        }
        assertThat(pending.take("real", "state")).as("a thousand page loads evict nobody").isPresent();

        for (int i = 0; i < PendingSignIns.MAX_PENDING; i++) {
            pending.add("old" + i, "s", "v", CALLBACK, "/");
        }
        clock.advance(PendingSignIns.LIFETIME);
        pending.add("late", "state", "v", CALLBACK, "/");
        assertThat(pending.size()).as("the expired went first").isEqualTo(1);
        assertThat(pending.take("late", "state")).isPresent();
    }

    @Test
    void theNonceCookieIsForTheCallbackOnlyLaxHttpOnlyAndShortLived() {
        assertThat(PendingCookie.set("abc", false))
                .isEqualTo("warden_signin=abc; Path=/login/callback; Max-Age=600; HttpOnly; SameSite=Lax");
        assertThat(PendingCookie.set("abc", true)).endsWith("; Secure");
        assertThat(PendingCookie.clear(false)).startsWith("warden_signin=; Path=/login/callback; Max-Age=0");
        assertThat(PendingCookie.read(List.of("warden_console=x; warden_signin=abc"))).contains("abc");
        assertThat(PendingCookie.read(List.of("warden_console=abc"))).isEmpty();
    }
}
