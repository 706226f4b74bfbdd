package dev.warden.gateway.internal.access;

import java.util.Optional;

/**
 * Whether the host of a web URL (http, https, ws, wss, ftp, file) is written the one way the
 * WHATWG URL parser leaves it. The parser rewrites more than case: it percent-decodes a host and
 * maps it through IDNA ({@code inter%C2%ADnal} is {@code internal}, {@code %EF%BD%81} is {@code a}),
 * reads a host ending in a number as IPv4 in any base and length ({@code 127.1}, {@code 0x7f.0.0.1},
 * {@code 2130706433} are {@code 127.0.0.1}), re-serialises IPv6, and drops a trailing dot as DNS
 * does. So a host is refused unless it is lower-case ASCII labels ({@code a-z 0-9 - _}, none
 * empty), four decimal octets without leading zeros, or an IPv6 address in RFC 5952's form.
 * Hand-written, no regex.
 */
final class WebHost {

    private WebHost() {
    }

    /** Why the host (the authority without userinfo and port) is not canonical, if it is not. */
    static Optional<String> refusal(String host, boolean file) {
        if (host.isEmpty()) {
            return file ? Optional.empty() : Optional.of("a web URL needs a host");
        }
        if (host.charAt(0) == '[') {
            return ipv6(host);
        }
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                return Optional.of("the host must be in lower case");
            }
            if (c == '%') {
                return Optional.of("a host must be written as itself, not percent-encoded (URL parsers decode "
                        + "and map it)");
            }
            if (!(c >= 'a' && c <= 'z' || digit(c) || c == '-' || c == '_' || c == '.')) {
                return Optional.of("a host may hold only lower-case letters, digits, '-', '_' and '.'");
            }
            if (c == '.' && (i == 0 || i == host.length() - 1 || host.charAt(i - 1) == '.')) {
                return Optional.of("a host has no empty label (no leading, trailing or doubled '.')");
            }
        }
        int last = host.lastIndexOf('.') + 1;
        return endsInNumber(host, last) && !dottedQuad(host)
                ? Optional.of("a host ending in a number is read as an IPv4 address: write it as four decimal "
                        + "octets without leading zeros (127.0.0.1)")
                : Optional.empty();
    }

    /** WHATWG's "ends in a number": the last label is decimal digits, or 0x and hex digits. */
    private static boolean endsInNumber(String host, int from) {
        boolean hex = host.startsWith("0x", from);
        for (int i = hex ? from + 2 : from; i < host.length(); i++) {
            if (!(hex ? hex(host.charAt(i)) >= 0 : digit(host.charAt(i)))) {
                return false;
            }
        }
        return true;
    }

    /** Four decimal octets, each 0..255 without leading zeros. */
    private static boolean dottedQuad(String host) {
        int octets = 0;
        int start = 0;
        for (int i = 0; i <= host.length(); i++) {
            if (i < host.length() && host.charAt(i) != '.') {
                if (!digit(host.charAt(i)) || i - start >= 3) {
                    return false;
                }
                continue;
            }
            int length = i - start;
            if (length == 0 || length > 1 && host.charAt(start) == '0'
                    || Integer.parseInt(host, start, i, 10) > 255) {
                return false;
            }
            octets++;
            start = i + 1;
        }
        return octets == 4;
    }

    /** {@code [address]}: parsed into its eight groups and written back in RFC 5952's form; refused unless the same. */
    private static Optional<String> ipv6(String host) {
        Optional<String> refused = Optional.of("an IPv6 host must be in RFC 5952's form (lower case, no leading "
                + "zeros, the longest run of zero groups written ::, no embedded IPv4, no zone)");
        if (host.length() < 3 || host.charAt(host.length() - 1) != ']') {
            return refused;
        }
        String text = host.substring(1, host.length() - 1);
        int[] groups = new int[8];
        int gap = text.indexOf("::");
        int head = gap < 0 ? groups(text, 0, text.length(), groups, 0) : groups(text, 0, gap, groups, 0);
        if (head < 0) {
            return refused;
        }
        if (gap < 0) {
            return head == 8 ? same(text, groups, refused) : refused;
        }
        int[] tail = new int[8];
        int after = groups(text, gap + 2, text.length(), tail, 0);
        if (after < 0 || head + after > 7) {
            return refused;
        }
        System.arraycopy(tail, 0, groups, 8 - after, after);
        return same(text, groups, refused);
    }

    /** Reads {@code h16(:h16)*} between from and to into groups from index at; how many, or -1 if malformed. */
    private static int groups(String text, int from, int to, int[] groups, int at) {
        if (from == to) {
            return 0;
        }
        int count = 0;
        int start = from;
        for (int i = from; i <= to; i++) {
            if (i < to && text.charAt(i) != ':') {
                if (hex(text.charAt(i)) < 0 || i - start >= 4) {
                    return -1;
                }
                continue;
            }
            if (i == start || at + count >= 8) {
                return -1;
            }
            groups[at + count++] = Integer.parseInt(text, start, i, 16);
            start = i + 1;
        }
        return count;
    }

    private static Optional<String> same(String text, int[] groups, Optional<String> refused) {
        return text.equals(rfc5952(groups)) ? Optional.empty() : refused;
    }

    /** RFC 5952 §4: lower-case hex without leading zeros; the first longest run of two or more zero groups as ::. */
    private static String rfc5952(int[] groups) {
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; i++) {
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = Math.max(i, j);
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out.append("::");
                i += bestLength - 1;
                continue;
            }
            if (!out.isEmpty() && out.charAt(out.length() - 1) != ':') {
                out.append(':');
            }
            out.append(Integer.toHexString(groups[i]));
        }
        return out.toString();
    }

    private static boolean digit(char c) {
        return c >= '0' && c <= '9';
    }

    private static int hex(char c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    }
}
