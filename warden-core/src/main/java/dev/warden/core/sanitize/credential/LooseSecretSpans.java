package dev.warden.core.sanitize.credential;

import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Finding;
import dev.warden.core.sanitize.scan.Text;
import java.util.List;

/**
 * Where {@link SecretDetector} finds the credentials it knows by shape besides the prefixed tokens
 * of {@link CredentialFormats}: PEM private key blocks, JWTs and the password in a URL's
 * {@code user:password@}, each taken loosely, since a false alarm in an error message is cheap.
 */
final class LooseSecretSpans {

    private LooseSecretSpans() {
    }

    /**
     * {@code scheme://user:password@host/…}: a connection string. Reports the password as a secret
     * (also kept out of incidents at rest) and the whole URL as topology: its user, host and
     * database are the server's too and help no caller (ARCHITECTURE: users and hosts the caller
     * never sent are redacted), while the operator still reads them in the incident. A password
     * that is already a marker is no password, so a relayed answer stays as it is.
     */
    static int urlUserinfo(String text, int authorityStart, List<Finding> out) {
        int n = text.length();
        int i = authorityStart;
        int colon = -1;
        int limit = Math.min(n, authorityStart + 512);
        while (i < limit) {
            char c = text.charAt(i);
            if (c == '@') {
                if (colon >= 0 && i > colon + 1 && !isMarker(text, colon + 1, i)) {
                    int end = urlEnd(text, i + 1);
                    out.add(new Finding(Category.TOPOLOGY, "connection-string", schemeStart(text, authorityStart - 3), end));
                    out.add(new Finding(Category.SECRET, "url-password", colon + 1, i));
                    return end;
                }
                return i + 1;
            }
            // '?' and '#' are not treated as the end: unencoded passwords contain them in error texts.
            if (c == '/' || Text.isSpace(c) || c == '"' || c == '\'' || c == '>' || c == ')') {
                return i;
            }
            if (c == ':' && colon < 0) {
                colon = i;
            }
            i++;
        }
        return i;
    }

    /** Whether {@code text[from, to)} is one marker and nothing else ({@code [redacted:url-password]}). */
    private static boolean isMarker(String text, int from, int to) {
        return text.startsWith("[redacted:", from) && text.charAt(to - 1) == ']' && text.indexOf(']', from) == to - 1;
    }

    /** Where the scheme ending at the {@code ':'} at {@code colon} starts (at most 32 characters back). */
    private static int schemeStart(String text, int colon) {
        int i = colon;
        while (i > 0 && colon - i < 32 && isSchemeChar(text.charAt(i - 1))) {
            i--;
        }
        return i;
    }

    private static boolean isSchemeChar(char c) {
        return c < 128 && (Character.isLetterOrDigit(c) || c == '+' || c == '-' || c == '.');
    }

    /** The end of a URL that goes on at {@code from}: a blank, a quote, a bracket or 2 KiB on. */
    private static int urlEnd(String text, int from) {
        int limit = Math.min(text.length(), from + 2048);
        int i = from;
        while (i < limit) {
            char c = text.charAt(i);
            if (Text.isSpace(c) || c == '"' || c == '\'' || c == '`' || c == '<' || c == '>' || c == ')'
                    || c == ']' || c == '}' || c == ',' || c == ';') {
                break;
            }
            i++;
        }
        return i;
    }

    static int pem(String text, int start) {
        int keyWord = Text.indexOf(text, "PRIVATE KEY-----", start, Math.min(text.length(), start + 80));
        if (keyWord >= 0 && Text.indexOf(text, '\n', start, keyWord) >= 0) {
            keyWord = -1;
        }
        if (keyWord < 0) {
            return -1;
        }
        int end = text.indexOf("-----END ", keyWord);
        if (end < 0) {
            return text.length();
        }
        int close = text.indexOf("-----", end + 9);
        return close < 0 ? text.length() : close + 5;
    }

    static int jwt(String text, int start) {
        int n = text.length();
        int i = start;
        int dots = 0;
        int partLength = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (Text.isAlnum(c) || c == '-' || c == '_') {
                partLength++;
            } else if (c == '.' && partLength >= 4 && dots < 2) {
                dots++;
                partLength = 0;
            } else {
                break;
            }
            i++;
        }
        return dots == 2 && (partLength >= 4 || partLength == 0) && i - start >= 30
                && text.startsWith("eyJ", Text.indexOf(text, '.', start, i) + 1) ? i : -1;
    }

    static boolean isTokenChar(char c) {
        return Text.isAlnum(c) || c == '_' || c == '-';
    }
}
