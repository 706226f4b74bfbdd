package dev.warden.gateway.internal.access;

import java.util.Map;
import java.util.Optional;

/**
 * Whether a resource URI is in the one form every upstream reads as it is written (RFC 3986
 * §6.2.2 and §5.2.4), so that what a rule or routing decided on is what the upstream reads.
 * Upstreams resolve URIs before reading them ({@code a/../b}, {@code %2e%2e}, default ports, host
 * case); a URI they might change, or read more than one way, is refused, never rewritten or
 * guessed. The rules, one by one: docs/design/gateway-checks.md. Hand-written, one pass, no regex.
 */
public final class CanonicalUri {

    /** The schemes whose URLs WHATWG parsers normalise further, with their default ports (-1: none). */
    private static final Map<String, Integer> WEB = Map.of("http", 80, "https", 443, "ws", 80, "wss", 443,
            "ftp", 21, "file", -1);

    private CanonicalUri() {
    }

    /** Why the URI is not canonical (ours, for the caller: it names only what the caller sent), if it is not. */
    public static Optional<String> refusal(String uri) {
        int colon = schemeEnd(uri);
        if (colon < 0) {
            return Optional.of("expected an absolute URI starting with a scheme (such as demo://...)");
        }
        for (int i = 0; i < colon; i++) {
            if (uri.charAt(i) >= 'A' && uri.charAt(i) <= 'Z') {
                return Optional.of("the scheme must be in lower case");
            }
        }
        int pathEnd = uri.length();
        for (int i = colon + 1; i < uri.length(); i++) {
            if (uri.charAt(i) == '?' || uri.charAt(i) == '#') {
                pathEnd = i;
                break;
            }
        }
        Optional<String> text = characters(uri, pathEnd);
        if (text.isPresent()) {
            return text;
        }
        int pathStart = colon + 1;
        String scheme = uri.substring(0, colon);
        if (uri.startsWith("//", pathStart)) {
            int end = pathStart + 2;
            while (end < pathEnd && uri.charAt(end) != '/') {
                end++;
            }
            if (WEB.containsKey(scheme)) {
                Optional<String> authority = webAuthority(scheme, uri.substring(pathStart + 2, end), end == pathEnd);
                if (authority.isPresent()) {
                    return authority;
                }
            }
            pathStart = end;
        } else if (WEB.containsKey(scheme)) {
            // Parsers supply the missing "//": http:example.com/ is read as http://example.com/.
            return Optional.of("a " + scheme + " URL is written " + scheme + "://host/path");
        }
        return dotSegment(uri, pathStart, pathEnd);
    }

    /** The index of the scheme's {@code :}, or -1 when the URI does not start with a scheme. */
    private static int schemeEnd(String uri) {
        if (uri.isEmpty() || !letter(uri.charAt(0))) {
            return -1;
        }
        for (int i = 1; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c == ':') {
                return i;
            }
            if (!(letter(c) || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
                return -1;
            }
        }
        return -1;
    }

    private static Optional<String> characters(String uri, int pathEnd) {
        for (int i = 0; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c != '%') {
                if (!unreserved(c) && "!$&'()*+,;=:/?#[]@".indexOf(c) < 0) {
                    return Optional.of("a character outside RFC 3986 (a space, control, backslash, non-ASCII "
                            + "character, or one of \"<>^`{|}) must be percent-encoded as UTF-8");
                }
                continue;
            }
            if (i + 2 >= uri.length() || hex(uri.charAt(i + 1)) < 0 || hex(uri.charAt(i + 2)) < 0) {
                return Optional.of("a '%' must be followed by two upper-case hex digits (%25 for a '%' itself)");
            }
            char decoded = (char) (hex(uri.charAt(i + 1)) * 16 + hex(uri.charAt(i + 2)));
            if (unreserved(decoded)) {
                return Optional.of("an unreserved character must be written as itself, not percent-encoded "
                        + "(%2E is '.', %41 is 'A')");
            }
            if (decoded == '%' && i + 4 < uri.length() && hex(uri.charAt(i + 3)) >= 0 && hex(uri.charAt(i + 4)) >= 0) {
                return Optional.of("double encoding (%25 before two hex digits, as in %252E) is ambiguous");
            }
            if (Character.isLowerCase(uri.charAt(i + 1)) || Character.isLowerCase(uri.charAt(i + 2))) {
                return Optional.of("percent-encodings must use upper-case hex digits (%3A, not %3a)");
            }
            if (i < pathEnd && (decoded == '/' || decoded == '\\')) {
                return Optional.of("an encoded '/' or '\\' (%2F, %5C) is ambiguous before the query");
            }
            i += 2;
        }
        return Optional.empty();
    }

    /** {@code host:port} of a web scheme's URL, as its parsers would leave it (see {@link WebHost}). */
    private static Optional<String> webAuthority(String scheme, String authority, boolean noPath) {
        if (authority.indexOf('@') >= 0) {
            // Parsers take what follows the last '@' as the host: http://allowed.example@evil/ is evil.
            return Optional.of("a " + scheme + " URL must not carry userinfo ('@' in its authority)");
        }
        int portAt = authority.startsWith("[") ? authority.indexOf(':', Math.max(0, authority.indexOf(']')))
                : authority.indexOf(':');
        String host = portAt < 0 ? authority : authority.substring(0, portAt);
        Optional<String> hostRefusal = WebHost.refusal(host, "file".equals(scheme));
        if (hostRefusal.isPresent()) {
            return hostRefusal;
        }
        if ("file".equals(scheme) && ("localhost".equals(host) || portAt >= 0)) {
            return Optional.of("file://localhost/ is written file:///, and a file URL has no port");
        }
        if (portAt >= 0) {
            String port = authority.substring(portAt + 1);
            if (port.isEmpty() || port.equals(String.valueOf(WEB.get(scheme))) || port.startsWith("0")) {
                return Optional.of("an empty or default port (or one with leading zeros) must be left out");
            }
            for (int i = 0; i < port.length(); i++) {
                if (port.charAt(i) < '0' || port.charAt(i) > '9' || i >= 5) {
                    return Optional.of("a port is a decimal number up to 65535");
                }
            }
            if (Integer.parseInt(port) > 65535) {
                return Optional.of("a port is a decimal number up to 65535");
            }
        }
        if (noPath) {
            return Optional.of("a " + scheme + " URL needs a path (at least '/')");
        }
        return Optional.empty();
    }

    /** A {@code .} or {@code ..} segment (before any {@code ;}) of the path between {@code start} and {@code end}. */
    private static Optional<String> dotSegment(String uri, int start, int end) {
        int segment = start;
        while (segment <= end) {
            int next = segment;
            while (next < end && uri.charAt(next) != '/') {
                next++;
            }
            int params = segment;
            while (params < next && uri.charAt(params) != ';') {
                params++;
            }
            int length = params - segment;
            if ((length == 1 || length == 2) && uri.charAt(segment) == '.' && uri.charAt(params - 1) == '.') {
                return Optional.of("a '.' or '..' path segment must be resolved before sending (RFC 3986 §5.2.4)");
            }
            segment = next + 1;
        }
        return Optional.empty();
    }

    private static boolean unreserved(char c) {
        return letter(c) || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~';
    }

    private static boolean letter(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    private static int hex(char c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10
                : -1;
    }
}
