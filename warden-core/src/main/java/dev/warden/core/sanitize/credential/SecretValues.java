package dev.warden.core.sanitize.credential;

import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Finding;
import dev.warden.core.sanitize.scan.Text;
import java.util.List;
import java.util.Locale;

/**
 * The value a secret-ish name gives away: after a separator ({@code name=value},
 * {@code "name": "value"}, {@code name: value}) or, for a long credential-looking token, right
 * after the name in prose ("api key 8f9a7b6c…"); and where such a value ends.
 */
final class SecretValues {

    private SecretValues() {
    }

    /** Cheap filter before the name check: is a separator ({@code =} or {@code :}) next? */
    static boolean mayBeFollowedByValue(String text, int end) {
        int n = text.length();
        int i = end;
        if (i < n && (text.charAt(i) == '"' || text.charAt(i) == '\'')) {
            i++;
        }
        int spaces = 0;
        while (i < n && (text.charAt(i) == ' ' || text.charAt(i) == '\t') && spaces < 4) {
            i++;
            spaces++;
        }
        return i < n && (text.charAt(i) == '=' || text.charAt(i) == ':');
    }

    /**
     * "api key 8f9a7b6c5d4e3f2a1b0c", "token is ab12…": a long, credential-looking token right
     * after a secret-ish name. Checked at the (rare) long token, looking back, so ordinary words
     * cost nothing here. {@code prev} holds the two tokens before this one (-1 when absent).
     */
    static boolean afterSecretName(String text, int start, int end, int[] prev) {
        if (end - start < 16 || prev[0] < 0 || !looksLikeCredential(text, start, end)) {
            return false;
        }
        int nameStart = prev[0];
        int nameEnd = prev[1];
        if (nameEnd - nameStart == 2 && Text.matchesIgnoreCase(text, nameStart, "is") && prev[2] >= 0) {
            nameStart = prev[2];
            nameEnd = prev[3];
        }
        for (int i = nameEnd; i < start; i++) {
            char c = text.charAt(i);
            if (c != ' ' && c != '\t' && !(i >= prev[0] && i < prev[1])) {
                return false;
            }
        }
        // Entropy last: it is the costly test, and long tokens after a non-secret name are common (UUIDs).
        return SecretNames.isSecretName(text, nameStart, nameEnd)
                && !SecretNames.isCommonWord(text, nameStart, nameEnd)
                && Text.entropy(text, start, end) >= 3.0;
    }

    /** After a secret-ish name: {@code name=value}, {@code name: value}, {@code "name": "value"}, {@code name value}. */
    static int keyValue(String text, int nameStart, int nameEnd, List<Finding> out) {
        int n = text.length();
        int i = nameEnd;
        boolean quotedName = i < n && (text.charAt(i) == '"' || text.charAt(i) == '\'');
        if (quotedName) {
            i++;
        }
        while (i < n && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        if (i >= n) {
            return nameEnd;
        }
        char sep = text.charAt(i);
        if (sep == '=' || sep == ':') {
            if (sep == ':' && i + 1 < n && text.charAt(i + 1) == '/') {
                return nameEnd; // a URL scheme, handled elsewhere
            }
            int v = i + 1;
            while (v < n && (text.charAt(v) == ' ' || text.charAt(v) == '\t')) {
                v++;
            }
            if (v >= n) {
                return nameEnd;
            }
            char q = text.charAt(v);
            int valueStart;
            int valueEnd;
            boolean quoted = q == '"' || q == '\'' || q == '`';
            if (quoted) {
                valueStart = v + 1;
                valueEnd = closingQuote(text, valueStart, q);
            } else {
                valueStart = v;
                valueEnd = valueEnd(text, v);
            }
            if (text.startsWith("-----", valueStart)) {
                return nameEnd; // a PEM block: the main loop reports it whole
            }
            if (valueEnd <= valueStart || isPlaceholder(text, valueStart, valueEnd)) {
                return Math.max(nameEnd, valueEnd);
            }
            if (SecretNames.isCodeOrKey(text, nameStart, nameEnd)
                    && SecretNames.isIdentifier(text, valueStart, valueEnd)) {
                return Math.max(nameEnd, valueEnd); // {"code":"RATE_LIMITED"}, code=ENOENT, "key": "user_email"
            }
            if (SecretNames.isWorkingDirectory(text, nameStart, nameEnd, valueStart, valueEnd)) {
                return Math.max(nameEnd, valueEnd); // "PWD": "/srv/app", OLDPWD=/home/ada: a shell's directory
            }
            boolean strong = sep == '=' || quoted || quotedName;
            if (strong || looksLikeCredential(text, valueStart, valueEnd)) {
                out.add(new Finding(Category.SECRET, "credential", valueStart, valueEnd));
                return valueEnd;
            }
            return nameEnd;
        }
        return nameEnd;
    }

    /** A value after "name:" in prose is a credential only if it looks like one: no plain word. */
    private static boolean looksLikeCredential(String text, int s, int e) {
        int len = e - s;
        if (len < 6) {
            return false;
        }
        boolean digit = false;
        boolean upper = false;
        boolean lower = false;
        boolean symbol = false;
        for (int i = s; i < e; i++) {
            char c = text.charAt(i);
            if (Text.isDigit(c)) {
                digit = true;
            } else if (Text.isUpper(c)) {
                upper = true;
            } else if (Text.isLower(c)) {
                lower = true;
            } else {
                symbol = true;
            }
        }
        int classes = (digit ? 1 : 0) + (upper ? 1 : 0) + (lower ? 1 : 0) + (symbol ? 1 : 0);
        return classes >= 2 && (digit || symbol || (upper && lower && len >= 12));
    }

    private static boolean isPlaceholder(String text, int s, int e) {
        String v = text.substring(s, Math.min(e, s + 16)).toLowerCase(Locale.ROOT);
        return v.startsWith("[redacted") || v.startsWith("***") || v.startsWith("<") || v.startsWith("${")
                || v.startsWith("{{") || v.equals("null") || v.equals("none") || v.equals("undefined")
                || v.equals("true") || v.equals("false") || v.startsWith("%") && v.length() < 4
                || v.chars().allMatch(ch -> ch == '*' || ch == 'x' || ch == 'X' || ch == '.');
    }

    static int valueEnd(String text, int s) {
        int i = s;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (Text.isSpace(c) || c == ';' || c == '&' || c == ',' || c == '"' || c == '\'' || c == '}' || c == ')'
                    || c == ']' || c == '>' || c == '<' || c == '`') {
                break;
            }
            i++;
        }
        return i;
    }

    private static int closingQuote(String text, int s, char quote) {
        int limit = Math.min(text.length(), s + 8192);
        for (int i = s; i < limit; i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == quote || c == '\n') {
                return i;
            }
        }
        return limit;
    }

    static int skip(String text, int from, String chars) {
        int i = from;
        while (i < text.length() && chars.indexOf(text.charAt(i)) >= 0) {
            i++;
        }
        return i;
    }

    static int firstOf(String text, int s, int e, String chars) {
        for (int i = s; i < e; i++) {
            if (chars.indexOf(text.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }

}
