package dev.warden.console.signin;

import java.util.List;
import java.util.Optional;

/**
 * The cookie that holds a sign-in under way and binds it to the browser that started it (login
 * CSRF): the sign-in sealed by {@link PendingSignIns} (the console keeps no table of them), set when
 * the console sends the browser to the authorization server, required at the callback and cleared
 * when it signs the browser in. Path=/login/callback (no other request carries it), HttpOnly,
 * SameSite=Lax (it must come along on the authorization server's top-level redirect back), Secure
 * over https, and no longer-lived than a pending sign-in.
 */
public final class PendingCookie {

    public static final String NAME = "warden_signin";
    private static final String PATH = "/login/callback";
    /** A sealed sign-in is about a thousand characters of base64url; a browser keeps 4096 bytes a cookie. */
    private static final int MAX_VALUE = 4000;

    private PendingCookie() {
    }

    public static String set(String sealed, boolean secure) {
        return NAME + "=" + sealed + "; Path=" + PATH + "; Max-Age=" + PendingSignIns.LIFETIME.toSeconds()
                + "; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "");
    }

    public static String clear(boolean secure) {
        return NAME + "=; Path=" + PATH + "; Max-Age=0; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "");
    }

    /** The sealed sign-in the request's Cookie headers carry. */
    public static Optional<String> read(List<String> cookieHeaders) {
        return SessionCookie.read(NAME, MAX_VALUE, cookieHeaders);
    }
}
