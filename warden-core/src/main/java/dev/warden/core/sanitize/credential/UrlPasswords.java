package dev.warden.core.sanitize.credential;

import dev.warden.core.sanitize.detection.CredentialFinding;
import dev.warden.core.sanitize.detection.CredentialKind;
import dev.warden.core.sanitize.scan.Text;
import java.util.List;
import java.util.Locale;

/**
 * The password in a URL's userinfo (RFC 3986 section 3.2.1): {@code scheme://user:password@host}.
 * Only the password's span is reported; the scheme, user and host stay. The authority ends at the
 * first {@code / ?}, blank, quote, angle bracket, backtick or backslash, and the userinfo at its
 * last {@code @} (people do write {@code @} and {@code #} unencoded in passwords).
 *
 * <p>A password that is a placeholder ({@link PasswordPlaceholders}) is left, and so is any
 * password for a host reserved for documentation (RFC 2606, RFC 6761): {@code example.com},
 * {@code example.net}, {@code example.org} and their subdomains, {@code *.example}, {@code *.test},
 * {@code *.invalid}.
 */
public final class UrlPasswords {

    /** Longer authorities are not URLs people write; bounding the look-ahead keeps the scan linear. */
    private static final int MAX_AUTHORITY = 512;
    private static final int MAX_SCHEME = 32;

    private static final List<String> DOCUMENTATION_DOMAINS = List.of("example.com", "example.net", "example.org");
    private static final List<String> DOCUMENTATION_TLDS = List.of(".example", ".test", ".invalid");

    private UrlPasswords() {
    }

    /** Matches at {@code at}, a ':'; returns where scanning resumes, or -1. */
    public static int match(String text, int at, List<CredentialFinding> out) {
        if (!text.startsWith("://", at) || !hasScheme(text, at)) {
            return -1;
        }
        int authorityStart = at + 3;
        int limit = Math.min(text.length(), authorityStart + MAX_AUTHORITY);
        int firstColon = -1;
        int firstHash = -1;
        int lastAt = -1;
        int authorityEnd = limit;
        for (int i = authorityStart; i < limit; i++) {
            char c = text.charAt(i);
            if (endsAuthority(c)) {
                authorityEnd = i;
                break;
            }
            if (c == ':' && firstColon < 0 && firstHash < 0) {
                firstColon = i;
            } else if (c == '#' && firstHash < 0) {
                firstHash = i;
            } else if (c == '@') {
                lastAt = i;
            }
        }
        if (lastAt < 0 || firstColon < 0 || firstColon > lastAt || lastAt == firstColon + 1) {
            return -1;
        }
        String user = text.substring(authorityStart, firstColon);
        String password = text.substring(firstColon + 1, lastAt);
        if (PasswordPlaceholders.isPlaceholder(password, user) || isDocumentationHost(text.substring(lastAt + 1, authorityEnd))) {
            return -1;
        }
        out.add(new CredentialFinding(CredentialKind.URL_PASSWORD, firstColon + 1, password.length()));
        return lastAt;
    }

    /** A scheme: a letter, then letters, digits, {@code + - .}, at least two characters in all. */
    private static boolean hasScheme(String text, int colon) {
        int i = colon;
        int floor = Math.max(0, colon - MAX_SCHEME);
        while (i > floor && isSchemeChar(text.charAt(i - 1))) {
            i--;
        }
        return colon - i >= 2 && Text.isAlnum(text.charAt(i)) && !Text.isDigit(text.charAt(i));
    }

    private static boolean isSchemeChar(char c) {
        return Text.isAlnum(c) || c == '+' || c == '-' || c == '.';
    }

    /**
     * RFC 3986 ends the authority at {@code / ? #}; '#' is read on, since generated passwords
     * carry it unencoded often enough, while a fragment holding an '@' is rare. A password
     * holding {@code / ?} is cut there and left: nothing tells it from a path or a query.
     */
    private static boolean endsAuthority(char c) {
        return c <= ' ' || c == '/' || c == '?' || c == '"' || c == '\'' || c == '<' || c == '>'
                || c == '`' || c == '\\' || c == 0x7f;
    }

    /** The host (and port) after the userinfo: is it a name reserved for examples? */
    static boolean isDocumentationHost(String hostAndPort) {
        String host = hostAndPort.toLowerCase(Locale.ROOT);
        if (host.indexOf('#') >= 0) {
            host = host.substring(0, host.indexOf('#'));
        }
        int port = host.lastIndexOf(':');
        if (port >= 0 && host.indexOf(']') < port) {
            host = host.substring(0, port);
        }
        if (host.endsWith(".")) {
            host = host.substring(0, host.length() - 1);
        }
        for (String domain : DOCUMENTATION_DOMAINS) {
            if (host.equals(domain) || host.endsWith("." + domain)) {
                return true;
            }
        }
        for (String tld : DOCUMENTATION_TLDS) {
            if (host.endsWith(tld)) {
                return true;
            }
        }
        return false;
    }
}
