package dev.warden.console.signin;

import java.util.List;
import java.util.Optional;

/**
 * The cookie that binds a sign-in to the browser that started it (login CSRF): a random nonce set
 * when the console sends the browser to the authorization server, required and cleared at the
 * callback. Path=/login/callback (no other request carries it), HttpOnly, SameSite=Lax (it must
 * come along on the authorization server's top-level redirect back), Secure over https, and no
 * longer-lived than a pending sign-in.
 */
public final class PendingCookie {

    public static final String NAME = "warden_signin";
    private static final String PATH = "/login/callback";

    private PendingCookie() {
    }

    public static String set(String nonce, boolean secure) {
        return NAME + "=" + nonce + "; Path=" + PATH + "; Max-Age=" + PendingSignIns.LIFETIME.toSeconds()
                + "; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "");
    }

    public static String clear(boolean secure) {
        return NAME + "=; Path=" + PATH + "; Max-Age=0; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "");
    }

    /** The nonce the request's Cookie headers carry. */
    public static Optional<String> read(List<String> cookieHeaders) {
        return SessionCookie.read(NAME, cookieHeaders);
    }
}
