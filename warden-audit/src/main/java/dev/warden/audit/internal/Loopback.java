package dev.warden.audit.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.util.Locale;

/**
 * Whether a host is this machine: {@code localhost} or a loopback address literal. Only a literal
 * is looked at, never DNS: a name could resolve elsewhere later.
 */
public final class Loopback {

    private Loopback() {
    }

    /** Whether {@code uri}'s host is this machine. */
    public static boolean of(URI uri) {
        return uri.getHost() != null && host(uri.getHost());
    }

    /** Whether {@code host} ({@code [::1]} or {@code ::1}, {@code 127.0.0.1}, {@code localhost}) is this machine. */
    public static boolean host(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.equals("localhost")) {
            return true;
        }
        boolean literal = h.startsWith("[") || h.contains(":") || !h.isEmpty() && h.chars().allMatch(c -> c == '.'
                || c >= '0' && c <= '9');
        try {
            return literal && InetAddress.getByName(h).isLoopbackAddress();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
