package dev.warden.core.sanitize.credential;

import dev.warden.core.sanitize.scan.Text;
import java.util.List;
import java.util.Locale;

/**
 * Tells a real password in a URL from what stands in its place in code, documentation, sample
 * configs and tests. A URL's password is a credential by position, not by format, so this leans
 * towards leaving text alone; the stand-ins it knows: docs/design/sanitizer.md.
 */
final class PasswordPlaceholders {

    private static final List<String> STAND_IN_PARTS = List.of("password", "passwd", "passwort", "ssword", "pass",
            "secret", "changeme", "changeit", "example", "placeholder", "redacted", "your", "fake", "dummy",
            "sample", "test", "demo", "hunter");
    private static final List<String> STAND_IN_WORDS = List.of("pwd", "pword", "foo", "bar", "baz", "qux", "quux",
            "xyzzy", "token", "apikey", "hidden", "masked", "null", "none", "empty");

    private PasswordPlaceholders() {
    }

    static boolean isPlaceholder(String rawPassword, String rawUser) {
        String password = percentDecoded(rawPassword);
        String user = percentDecoded(rawUser);
        if (password.length() < 4 || password.equalsIgnoreCase(user)
                || (user.equals("scott") && password.equals("tiger"))) {
            return true;
        }
        if (password.chars().anyMatch(c -> c < 0x20)) {
            return true; // percent-encoded control characters: a parser's test, not a secret anyone types
        }
        if (user.equalsIgnoreCase("anonymous") || user.equalsIgnoreCase("anon")
                || (user.isEmpty() && password.indexOf(':') >= 0)
                || password.indexOf('[') >= 0 || password.indexOf(']') >= 0) {
            return true;
        }
        return isTemplate(password) || isMask(password) || isVariableName(password) || saysStandIn(password);
    }

    private static boolean isTemplate(String password) {
        char first = password.charAt(0);
        char last = password.charAt(password.length() - 1);
        return first == '$' || password.contains("{{") || password.contains("${") || password.contains("#{")
                || password.contains("%(") || password.contains("<%")
                || (first == '{' && last == '}') || (first == '<' && last == '>') || (first == '(' && last == ')');
    }

    private static boolean isMask(String password) {
        return password.chars().allMatch(c -> c == '*' || c == 'x' || c == 'X' || c == '.' || c == '\u2022'
                || c == '\u2026' || c == '#' || c == '?');
    }

    /** {@code SAS_KEY}, {@code DB_PASSWORD}: upper-case words joined by underscores, the name of a setting. */
    private static boolean isVariableName(String password) {
        boolean underscore = false;
        for (int i = 0; i < password.length(); i++) {
            char c = password.charAt(i);
            if (c == '_' && i > 0 && i < password.length() - 1) {
                underscore = true;
            } else if (!Text.isUpper(c) && !(Text.isDigit(c) && i > 0)) {
                return false;
            }
        }
        return underscore;
    }

    /**
     * A stand-in word, as written ({@code mysecretpassword}, {@code fakepass}, {@code testing}) or
     * with digits and signs for letters when the whole password is such a word ({@code p4ss},
     * {@code P@SSWORD}, {@code s3cr3t!}). Only a whole word is de-leeted: in a random password,
     * {@code 27E5t} is no "test". Parts have four letters or more, so that a random password of
     * 20 characters holds one by chance with probability about 1e-4.
     */
    private static boolean saysStandIn(String password) {
        String asWritten = password.toLowerCase(Locale.ROOT);
        if (containsPart(asWritten) || STAND_IN_WORDS.contains(asWritten)) {
            return true;
        }
        StringBuilder word = new StringBuilder(password.length());
        for (int i = 0; i < password.length(); i++) {
            char c = deLeet(password.charAt(i));
            if (Text.isUpper(c) || Text.isLower(c)) {
                word.append(Text.lower(c));
            } else if (c != '_' && c != '-' && c != '!' && c != '.') {
                return false;
            }
        }
        String deLeeted = word.toString();
        return containsPart(deLeeted) || STAND_IN_WORDS.contains(deLeeted);
    }

    private static boolean containsPart(String lower) {
        for (String part : STAND_IN_PARTS) {
            if (lower.contains(part)) {
                return true;
            }
        }
        return false;
    }

    /** Digits and signs written for letters ({@code p4ss}, {@code p@ssw0rd}, {@code s3cr3t}). */
    private static char deLeet(char c) {
        return switch (c) {
            case '4', '@' -> 'a';
            case '0' -> 'o';
            case '3' -> 'e';
            case '1' -> 'i';
            case '5', '$' -> 's';
            case '7' -> 't';
            default -> c;
        };
    }

    /** {@code %XX} sequences decoded as single characters (ASCII is all that matters here); others kept. */
    private static String percentDecoded(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length() && isHex(s.charAt(i + 1)) && isHex(s.charAt(i + 2))) {
                out.append((char) Integer.parseInt(s.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean isHex(char c) {
        return Text.isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
