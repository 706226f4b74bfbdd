package dev.warden.client.http;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;

/**
 * Whether a host is this machine: {@code localhost} or a loopback address literal ({@code
 * 127.0.0.1}, {@code ::1}, {@code [::1]}). Only a literal is looked at, never DNS: a name could
 * resolve elsewhere later. The one rule for where a credential may go in clear text and where a
 * probe may point.
 */
public final class Loopback {

    private Loopback() {
    }

    /** Whether {@code uri}'s host is this machine. */
    public static boolean of(URI uri) {
        return uri.getHost() != null && host(uri.getHost());
    }

    /** Whether {@code host} is this machine. */
    public static boolean host(String host) {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (h.equalsIgnoreCase("localhost")) {
            return true;
        }
        if (h.isEmpty() || !h.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == '.' || c == ':')) {
            return false; // a name other than localhost: never resolved here
        }
        try {
            return InetAddress.getByName(h).isLoopbackAddress(); // a literal, so no lookup
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
