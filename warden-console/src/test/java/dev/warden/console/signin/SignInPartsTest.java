package dev.warden.console.signin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.testkit.MutableClock;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The browser sign-in's parts, on a clock the test moves: the cookies, the sessions, the sealed sign-ins under way. */
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
    void aSealedSignInOpensWithItsOwnStateWithinItsLifetimeAndNotAfterItFinished() {
        MutableClock clock = new MutableClock(T0);
        PendingSignIns pending = new PendingSignIns(clock);
        String sealed = pending.seal("s1", "v1", CALLBACK, "/incidents");
        assertThat(pending.open(sealed, "another state")).isEmpty();
        PendingSignIns.Pending opened = pending.open(sealed, "s1").orElseThrow();
        assertThat(opened).isEqualTo(new PendingSignIns.Pending("s1", "v1", CALLBACK, "/incidents", T0));
        assertThat(pending.open(sealed, "s1")).as("a refused or unfinished callback uses nothing up").isPresent();
        pending.finished(opened);
        assertThat(pending.open(sealed, "s1")).as("a state is taken once").isEmpty();

        String later = pending.seal("s2", "v2", CALLBACK, "/");
        clock.advance(PendingSignIns.LIFETIME.minusSeconds(1));
        assertThat(pending.open(later, "s2")).isPresent();
        clock.advance(Duration.ofSeconds(1));
        assertThat(pending.open(later, "s2")).as("expired").isEmpty();
    }

    @Test
    void onlyWhatThisConsoleSealedAndNobodyChangedOpens() {
        PendingSignIns pending = new PendingSignIns(new MutableClock(T0));
        String sealed = pending.seal("state", "verifier", CALLBACK, "/");
        char c = sealed.charAt(sealed.length() / 2);
        String tampered = sealed.substring(0, sealed.length() / 2) + (c == 'A' ? 'B' : 'A')
                + sealed.substring(sealed.length() / 2 + 1);
        assertThat(pending.open(tampered, "state")).isEmpty();
        assertThat(pending.open(sealed.substring(0, sealed.length() - 4), "state")).isEmpty();
        assertThat(pending.open("A".repeat(43), "state")).isEmpty();
        assertThat(pending.open("not base64url!", "state")).isEmpty();
        assertThat(new PendingSignIns(new MutableClock(T0)).open(sealed, "state")).as("after a restart: a new key")
                .isEmpty();
        assertThat(pending.open(sealed, "state")).isPresent();
    }

    @Test
    void theSealedSignInShowsNothingOfWhatItHolds() {
        PendingSignIns pending = new PendingSignIns(new MutableClock(T0));
        String verifier = "the-pkce-verifier-0123456789-abcdefghijklmnopqrstuvwxyz";
        String sealed = pending.seal("state", verifier, CALLBACK, "/incidents");
        String decoded = new String(Base64.getUrlDecoder().decode(sealed), StandardCharsets.ISO_8859_1);
        assertThat(sealed).doesNotContain(verifier);
        assertThat(decoded).doesNotContain(verifier).doesNotContain("/incidents").doesNotContain("/login/callback");
        assertThat(pending.seal("state", verifier, CALLBACK, "/incidents")).as("a fresh IV each time")
                .isNotEqualTo(sealed);
    }

    @Test
    void manySignInsUnderWayDropNone() {
        PendingSignIns pending = new PendingSignIns(new MutableClock(T0));
        String first = pending.seal("first", "v", CALLBACK, "/");
        for (int i = 0; i < 10_000; i++) {
            pending.seal("s" + i, "v", CALLBACK, "/");
        }
        assertThat(pending.open(first, "first")).isPresent();
    }

    @Test
    void thePendingCookieIsForTheCallbackOnlyLaxHttpOnlyAndShortLived() {
        assertThat(PendingCookie.set("abc", false))
                .isEqualTo("warden_signin=abc; Path=/login/callback; Max-Age=600; HttpOnly; SameSite=Lax");
        assertThat(PendingCookie.set("abc", true)).endsWith("; Secure");
        assertThat(PendingCookie.clear(false)).startsWith("warden_signin=; Path=/login/callback; Max-Age=0");
        assertThat(PendingCookie.read(List.of("warden_console=x; warden_signin=abc"))).contains("abc");
        assertThat(PendingCookie.read(List.of("warden_console=abc"))).isEmpty();
        String sealed = new PendingSignIns(new MutableClock(T0)).seal("s", "v", CALLBACK, "/" + "a".repeat(511));
        assertThat(PendingCookie.read(List.of("warden_signin=" + sealed))).as("the longest return path").contains(sealed);
    }
}
