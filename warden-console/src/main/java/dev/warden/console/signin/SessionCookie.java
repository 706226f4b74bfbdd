package dev.warden.console.signin;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The console's one cookie: a random session id, nothing else (the token stays on the server).
 * HttpOnly (no script could read it anyway), SameSite=Strict (no other site's page sends it),
 * Path=/, Secure when the console is served over https, and Max-Age no longer than the session.
 */
public final class SessionCookie {

    public static final String NAME = "warden_console";

    /** A session id is 43 characters of base64url; anything longer in a Cookie header is not ours. */
    private static final int MAX_ID = 64;

    private SessionCookie() {
    }

    /** The Set-Cookie value that hands the browser {@code id} for {@code lifetime}. */
    public static String set(String id, Duration lifetime, boolean secure) {
        return NAME + "=" + id + "; Path=/; Max-Age=" + Math.max(0, lifetime.toSeconds()) + "; HttpOnly; SameSite=Strict"
                + (secure ? "; Secure" : "");
    }

    /** The Set-Cookie value that makes the browser forget it. */
    public static String clear(boolean secure) {
        return set("", Duration.ZERO, secure);
    }

    /**
     * The session id the request's Cookie headers carry, read by hand (no regex over what a client
     * sent): the first {@code warden_console} pair whose value is base64url.
     */
    public static Optional<String> read(List<String> cookieHeaders) {
        return read(NAME, MAX_ID, cookieHeaders);
    }

    /** The first {@code name} pair whose value is base64url of at most {@code max} characters (also the {@link PendingCookie}'s reader). */
    static Optional<String> read(String name, int max, List<String> cookieHeaders) {
        for (String header : cookieHeaders) {
            for (String pair : header.split(";", -1)) {
                String p = pair.strip();
                if (p.startsWith(name + "=")) {
                    String value = p.substring(name.length() + 1);
                    if (!value.isEmpty() && value.length() <= max && value.chars().allMatch(SessionCookie::base64url)) {
                        return Optional.of(value);
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static boolean base64url(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_';
    }
}
