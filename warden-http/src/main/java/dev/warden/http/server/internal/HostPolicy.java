package dev.warden.http.server.internal;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Which {@code Host} and {@code Origin} values may reach the server: the defence against DNS
 * rebinding, where a web page whose name resolves to 127.0.0.1 makes the browser talk to a local
 * server. Names are compared without the port; an absent Origin (clients that are not browsers)
 * is allowed, an absent Host is not.
 */
public final class HostPolicy {

    private final Set<String> hosts;

    public HostPolicy(Set<String> hosts) {
        this.hosts = Set.copyOf(hosts.stream().map(h -> h.toLowerCase(Locale.ROOT)).toList());
    }

    public static HostPolicy loopback() {
        return new HostPolicy(Set.of("localhost", "127.0.0.1", "[::1]"));
    }

    public Set<String> hosts() {
        return hosts;
    }

    public boolean allowsHost(Optional<String> hostHeader) {
        return hostHeader.map(HostPolicy::nameOf).map(hosts::contains).orElse(false);
    }

    public boolean allowsOrigin(Optional<String> originHeader) {
        if (originHeader.isEmpty()) {
            return true;
        }
        String origin = originHeader.get();
        int scheme = origin.indexOf("://");
        if (scheme < 0) {
            return false; // "null" (a sandboxed page or a file) and anything malformed
        }
        String s = origin.substring(0, scheme).toLowerCase(Locale.ROOT);
        if (!s.equals("http") && !s.equals("https")) {
            return false;
        }
        String authority = origin.substring(scheme + 3);
        if (authority.indexOf('/') >= 0 || authority.indexOf('@') >= 0) {
            return false;
        }
        return hosts.contains(nameOf(authority));
    }

    /** The host name of {@code host[:port]} or {@code [v6][:port]}, lower-cased. */
    static String nameOf(String authority) {
        String a = authority.trim().toLowerCase(Locale.ROOT);
        if (a.startsWith("[")) {
            int close = a.indexOf(']');
            return close > 0 ? a.substring(0, close + 1) : a;
        }
        int colon = a.lastIndexOf(':');
        return colon >= 0 ? a.substring(0, colon) : a;
    }
}
