package dev.warden.core.sanitize.topology;

import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Detector;
import dev.warden.core.sanitize.detection.Finding;
import dev.warden.core.sanitize.scan.Text;
import java.util.List;
import java.util.Locale;

/**
 * Internal topology: private, loopback, link-local and shared-space IPv4 addresses and the IPv6
 * equivalents (with ports), internal host names ({@code .internal}, {@code .local}, {@code .corp},
 * {@code .svc.cluster.local}, {@code localhost:port}, …) and environment-variable dumps (three or
 * more {@code NAME=value} lines, or Python's {@code environ({...})}). Public addresses and public
 * host names are left alone: they are not internal topology.
 */
public final class TopologyDetector implements Detector {

    /** Last labels that only internal names end in (plus {@code home.arpa} and {@code in-addr.arpa}). */
    private static final String[] INTERNAL_LABELS = {"internal", "local", "localdomain", "corp", "lan", "intranet",
            "intra", "private", "priv", "svc", "consul", "cluster", "k8s", "kube"};

    @Override
    public Category category() {
        return Category.TOPOLOGY;
    }

    @Override
    public void scan(String text, List<Finding> out) {
        envDumps(text, out);
        int n = text.length();
        // Addresses and host names contain a dot: jump from dot to dot (String.indexOf is vectorised).
        int dot = text.indexOf('.');
        while (dot >= 0) {
            int start = dot;
            while (start > 0 && isHostChar(text.charAt(start - 1))) {
                start--;
            }
            int end = dot;
            while (end < n && isHostChar(text.charAt(end))) {
                end++;
            }
            int resume = end;
            if (start < dot) {
                char first = text.charAt(start);
                int ip = (first == '1' || first == '0') ? ipv4(text, start) : -1;
                if (ip > 0 && (start == 0 || !Text.isAlnum(text.charAt(start - 1)))) {
                    int withPort = port(text, ip);
                    out.add(new Finding(Category.TOPOLOGY, "internal-ip", start, withPort));
                    resume = withPort;
                } else {
                    int hostEnd = end;
                    while (hostEnd > start && (text.charAt(hostEnd - 1) == '.' || text.charAt(hostEnd - 1) == '-')) {
                        hostEnd--;
                    }
                    if (Text.isAlnum(first) && internalHost(text, start, hostEnd)) {
                        int withPort = port(text, hostEnd);
                        out.add(new Finding(Category.TOPOLOGY, "internal-host", start, withPort));
                        resume = withPort;
                    }
                }
            }
            dot = text.indexOf('.', Math.max(resume, dot + 1));
        }
        // localhost:port, "::" and fe80: all contain a colon: one vectorised char search finds them all
        // (a string search per literal costs more than the rest of this detector).
        int colon = text.indexOf(':');
        while (colon >= 0) {
            int resume = colon + 1;
            if (colon >= 9 && text.regionMatches(true, colon - 9, "localhost", 0, 9)
                    && (colon == 9 || !isHostChar(text.charAt(colon - 10)))
                    && colon + 1 < n && Text.isDigit(text.charAt(colon + 1))) {
                int withPort = port(text, colon);
                out.add(new Finding(Category.TOPOLOGY, "internal-host", colon - 9, withPort));
                resume = withPort;
            } else if ((colon + 1 < n && text.charAt(colon + 1) == ':')
                    || (colon >= 4 && text.regionMatches(true, colon - 4, "fe80", 0, 4))) {
                int start = colon;
                // An IPv6 address is at most 45 characters: the bound keeps runs of colons linear.
                while (start > 0 && colon - start < 45
                        && (isHex(text.charAt(start - 1)) || text.charAt(start - 1) == ':')) {
                    start--;
                }
                if (start > 0 && text.charAt(start - 1) == '[') {
                    start--;
                }
                // A span that overlaps one found earlier is harmless: the sanitizer merges spans.
                int end = (start == 0 || !Text.isAlnum(text.charAt(start - 1))) ? ipv6(text, start) : -1;
                if (end > 0) {
                    out.add(new Finding(Category.TOPOLOGY, "internal-ip", start, end));
                    resume = end;
                } else {
                    // Every colon of this run of hex digits and colons walks back to the same start
                    // and fails the same way: go past the run ("::::" repeated cost 45 steps a colon).
                    int runEnd = colon + 1;
                    while (runEnd < n && (isHex(text.charAt(runEnd)) || text.charAt(runEnd) == ':')) {
                        runEnd++;
                    }
                    resume = runEnd;
                }
            }
            colon = text.indexOf(':', Math.max(resume, colon + 1));
        }
    }

    /**
     * Middle labels that say a public domain's host is internal ({@code enrich-worker-7.int.acme-data.net},
     * {@code db.corp.example.com}): the zone is public, the host in it is not.
     */
    private static final String[] INTERNAL_MIDDLE_LABELS = {"internal", "int", "corp", "intranet", "intra", "priv",
            "private", "svc", "cluster", "k8s", "kube", "lan"};

    /** Whether the host name in {@code [s, e)} ends in an internal label; no allocation (called per dotted word). */
    private static boolean internalHost(String text, int s, int e) {
        int lastDot = e - 1;
        while (lastDot > s && text.charAt(lastDot) != '.') {
            lastDot--; // bounded by the word: lastIndexOf would run on to earlier text
        }
        if (lastDot <= s) {
            return false;
        }
        if (internalMiddleLabel(text, s, lastDot)) {
            return true;
        }
        int labelLength = e - lastDot - 1;
        for (String label : INTERNAL_LABELS) {
            if (label.length() == labelLength && text.regionMatches(true, lastDot + 1, label, 0, labelLength)) {
                return true;
            }
        }
        return labelLength == 4 && text.regionMatches(true, lastDot + 1, "arpa", 0, 4)
                && (endsWithIgnoreCase(text, s, lastDot, ".home") || endsWithIgnoreCase(text, s, lastDot, ".in-addr"));
    }

    /** A label strictly between the first and the last of {@code [s, lastDot)} that is an internal one. */
    private static boolean internalMiddleLabel(String text, int s, int lastDot) {
        int firstDot = text.indexOf('.', s);
        int from = firstDot + 1;
        while (firstDot >= 0 && from < lastDot) {
            int to = text.indexOf('.', from);
            if (to < 0 || to > lastDot) {
                to = lastDot;
            }
            for (String label : INTERNAL_MIDDLE_LABELS) {
                if (label.length() == to - from && text.regionMatches(true, from, label, 0, to - from)) {
                    return true;
                }
            }
            from = to + 1;
        }
        return false;
    }

    private static boolean endsWithIgnoreCase(String text, int s, int e, String suffix) {
        int len = suffix.length();
        return e - s > len && text.regionMatches(true, e - len, suffix, 0, len);
    }

    /** A private-range dotted quad ending at the returned index, or -1. Allocation-free: called on every number. */
    private static int ipv4(String text, int start) {
        int n = text.length();
        int i = start;
        int first = 0;
        int second = 0;
        for (int k = 0; k < 4; k++) {
            int digits = 0;
            int value = 0;
            while (i < n && digits < 4) {
                char d = text.charAt(i);
                if (d < '0' || d > '9') {
                    break;
                }
                value = value * 10 + (d - '0');
                i++;
                digits++;
            }
            if (digits == 0 || digits > 3 || value > 255) {
                return -1;
            }
            if (k == 0) {
                first = value;
            } else if (k == 1) {
                second = value;
            }
            if (k < 3) {
                if (i >= n || text.charAt(i) != '.') {
                    return -1;
                }
                i++;
            }
        }
        if (i < n && (Text.isAlnum(text.charAt(i)) || (text.charAt(i) == '.' && i + 1 < n
                && Text.isDigit(text.charAt(i + 1))))) {
            return -1;
        }
        int a = first;
        int b = second;
        boolean internal = a == 10 || a == 127 || (a == 172 && b >= 16 && b <= 31) || (a == 192 && b == 168)
                || (a == 169 && b == 254) || (a == 100 && b >= 64 && b <= 127) || (a == 0 && b == 0);
        return internal ? i : -1;
    }

    /** {@code ::1}, {@code [::1]:8080}, {@code fe80::1%eth0}, {@code fd12:3456::1}. */
    private static int ipv6(String text, int start) {
        int n = text.length();
        int i = start;
        boolean bracket = text.charAt(i) == '[';
        if (bracket) {
            i++;
        }
        int addrStart = i;
        int limit = Math.min(n, addrStart + 46);
        while (i < limit && (isHex(text.charAt(i)) || text.charAt(i) == ':' || text.charAt(i) == '%'
                || (text.charAt(i) == '.' && i > addrStart))) {
            i++;
        }
        String addr = text.substring(addrStart, i).toLowerCase(Locale.ROOT);
        int colons = 0;
        for (int k = 0; k < addr.length(); k++) {
            if (addr.charAt(k) == ':') {
                colons++;
            }
        }
        boolean internal = addr.equals("::1") || ((addr.startsWith("fe80:") || addr.startsWith("fd")
                || addr.startsWith("fc")) && colons >= 2 && addr.contains("::") || colons >= 5
                && (addr.startsWith("fd") || addr.startsWith("fc") || addr.startsWith("fe80")));
        if (!internal || (i < n && Text.isAlnum(text.charAt(i)))) {
            return -1;
        }
        if (bracket) {
            if (i < n && text.charAt(i) == ']') {
                return port(text, i + 1);
            }
            return -1;
        }
        return i;
    }

    private static int port(String text, int end) {
        int n = text.length();
        if (end + 1 < n && text.charAt(end) == ':' && Text.isDigit(text.charAt(end + 1))) {
            int i = end + 1;
            while (i < n && Text.isDigit(text.charAt(i)) && i - end <= 5) {
                i++;
            }
            return i;
        }
        return end;
    }

    /** Three or more consecutive {@code NAME=value} lines, and {@code environ({...})}. */
    private static void envDumps(String text, List<Finding> out) {
        // An env line holds '=': jump from one to the next, and look at the lines that hold one.
        int runStart = -1;
        int runEnd = -2;
        int runLines = 0;
        int scanned = 0; // the line starts before this point are known
        int eq = text.indexOf('=');
        while (eq >= 0) {
            int lineStart = eq;
            while (lineStart > scanned && text.charAt(lineStart - 1) != '\n') {
                lineStart--;
            }
            int lineEnd = Text.lineEnd(text, eq);
            if (isEnvLine(text, lineStart, lineEnd)) {
                if (runStart >= 0 && lineStart == runEnd + 1) {
                    runLines++;
                } else {
                    if (runStart >= 0 && runLines >= 3) {
                        out.add(new Finding(Category.TOPOLOGY, "env-dump", runStart, runEnd));
                    }
                    runStart = lineStart;
                    runLines = 1;
                }
                runEnd = lineEnd;
            }
            scanned = lineEnd + 1;
            eq = scanned < text.length() ? text.indexOf('=', scanned) : -1;
        }
        if (runStart >= 0 && runLines >= 3) {
            out.add(new Finding(Category.TOPOLOGY, "env-dump", runStart, runEnd));
        }
        int environ = environ(text, 0);
        int close = environ < 0 ? -1 : text.indexOf("})", environ);
        while (environ >= 0) {
            if (close >= 0 && close < environ) {
                close = text.indexOf("})", environ); // cursors only move forward: linear overall
            }
            int end = close < 0 ? Text.lineEnd(text, environ) : close + 2;
            out.add(new Finding(Category.TOPOLOGY, "env-dump", environ, end));
            environ = environ(text, end);
        }
    }

    /** The next {@code environ(&#123;} (Python's os.environ repr), found by its rarer '{'. */
    private static int environ(String text, int from) {
        int brace = text.indexOf('{', from + 8);
        while (brace >= 0) {
            if (text.startsWith("environ(", brace - 8)) {
                return brace - 8;
            }
            brace = text.indexOf('{', brace + 1);
        }
        return -1;
    }

    private static boolean isEnvLine(String text, int s, int e) {
        int i = s;
        while (i < e && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        if (Text.matches(text, i, "export ")) {
            i += 7;
        }
        int nameStart = i;
        while (i < e && (Text.isUpper(text.charAt(i)) || Text.isDigit(text.charAt(i)) || text.charAt(i) == '_')) {
            i++;
        }
        return i - nameStart >= 2 && Text.isUpper(text.charAt(nameStart)) && i < e && text.charAt(i) == '=';
    }

    private static boolean isHostChar(char c) {
        return Text.isAlnum(c) || c == '-' || c == '.' || c == '_';
    }

    private static boolean isHex(char c) {
        return Text.isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
