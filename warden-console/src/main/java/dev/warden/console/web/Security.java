package dev.warden.console.web;

import java.util.Map;

/**
 * The headers every answer of the console carries. The policy allows nothing but the console's
 * own stylesheet: no script at all (the pages have none), no inline style, no image, font or
 * connection, no framing; forms submit only to the console. So a string that escaped escaping
 * could still neither run nor fetch.
 */
public final class Security {

    public static final String CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'self'; form-action 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'";

    public static final Map<String, String> HEADERS = Map.of(
            "Content-Security-Policy", CONTENT_SECURITY_POLICY,
            "X-Content-Type-Options", "nosniff",
            "Referrer-Policy", "no-referrer",
            "X-Frame-Options", "DENY",
            // What the console shows is for the operator now: no cache keeps it.
            "Cache-Control", "no-store",
            "Cross-Origin-Resource-Policy", "same-origin",
            "Cross-Origin-Opener-Policy", "same-origin");

    private Security() {
    }
}
