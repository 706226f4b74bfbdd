package dev.warden.http.server;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Which {@code Host} and {@code Origin} values may reach the server: the defence against DNS
 * rebinding, where a web page whose name resolves to 127.0.0.1 makes the browser talk to a local
 * server, and against other local web applications (another port of localhost is another origin).
 * Host names are compared without the port. An Origin is accepted when it is the server's own (a
 * name of {@code hosts} with the port the request's Host header names) or one configured in
 * {@code origins}; an absent Origin (clients that are not browsers) is allowed, an absent Host is
 * not.
 */
public final class HostPolicy {

    private final Set<String> hosts;
    private final Set<String> origins;

    /**
     * @param origins whole origins ({@code scheme://host[:port]}) accepted besides the server's own,
     *                such as a browser-based inspector served from another port
     */
    public HostPolicy(Set<String> hosts, Set<String> origins) {
        this.hosts = Set.copyOf(hosts.stream().map(h -> h.toLowerCase(Locale.ROOT)).toList());
        this.origins = Set.copyOf(origins.stream().map(HostPolicy::normalizeOrigin).toList());
    }

    public HostPolicy(Set<String> hosts) {
        this(hosts, Set.of());
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

    /**
     * @param hostHeader the request's Host: the origin must name its port (the server's own
     *                   origin under any of its allowed names)
     */
    public boolean allowsOrigin(Optional<String> originHeader, Optional<String> hostHeader) {
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
        if (origins.contains(normalizeOrigin(origin))) {
            return true;
        }
        if (!hosts.contains(nameOf(authority)) || hostHeader.isEmpty()) {
            return false;
        }
        String defaultPort = s.equals("https") ? "443" : "80";
        return portOf(authority, defaultPort).equals(portOf(hostHeader.get(), defaultPort));
    }

    /** Whether a request with these headers may be served: its Host allowed, its Origin absent or allowed. */
    public boolean allows(Optional<String> hostHeader, Optional<String> originHeader) {
        return allowsHost(hostHeader) && allowsOrigin(originHeader, hostHeader);
    }

    /** Whether a name is a loopback host (binding there needs no allowed host names). */
    public static boolean isLoopback(String host) {
        return host.equals("127.0.0.1") || host.equals("localhost") || host.equals("::1") || host.equals("[::1]");
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

    /** The port of {@code host[:port]} or {@code [v6][:port]}, or {@code otherwise} when none is named. */
    static String portOf(String authority, String otherwise) {
        String a = authority.trim();
        int from = a.startsWith("[") ? Math.max(a.indexOf(']'), 0) : 0;
        int colon = a.indexOf(':', from);
        return colon >= 0 && colon < a.length() - 1 ? a.substring(colon + 1) : otherwise;
    }

    private static String normalizeOrigin(String origin) {
        String o = origin.trim().toLowerCase(Locale.ROOT);
        return o.endsWith("/") ? o.substring(0, o.length() - 1) : o;
    }
}
