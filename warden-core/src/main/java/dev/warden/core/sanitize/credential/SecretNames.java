package dev.warden.core.sanitize.credential;

import dev.warden.core.sanitize.scan.Text;
import java.util.Locale;

/**
 * Which names make the value after them a secret ({@code password=}, {@code api_key:},
 * {@code client_secret}), which are settings about secrets rather than secrets
 * ({@code token_limit}, {@code password_policy}), and which values after a name are error codes or
 * lookup keys, not credentials.
 */
final class SecretNames {

    private SecretNames() {
    }

    /** Name parts that make the value after {@code =} or {@code :} a secret. */
    private static final String[] SECRET_NAMES = {"password", "passwd", "passphrase", "pwd", "secret", "token",
            "apikey", "api_key", "api-key", "accesskey", "access_key", "access-key", "privatekey", "private_key",
            "private-key", "credential", "accountkey", "sharedaccesskey", "sharedaccesssignature", "signature",
            "session", "cookie", "authorization", "auth_key", "authkey", "client_secret", "encryption_key",
            "signing_key", "master_key", "x-api-key", "dsn"};

    /** Name parts that mean the value is a setting about secrets, not a secret. */
    private static final String[] NOT_SECRET_NAMES = {"tokens", "tokeniz", "length", "_count", "count_", "limit", "max",
            "min", "size", "type", "policy", "expir", "ttl", "timeout", "format", "field", "name", "label", "hint",
            "strength", "url", "endpoint", "file", "path", "reset", "required", "enabled", "rotation", "usage",
            "prompt", "manager", "store", "provider", "header", "sessions", "budget", "cost",
            "version", "scope"};

    private static final String[] EXACT_NAMES = {"sig", "key", "pass", "pw", "auth", "code", "sas", "x-amz-signature",
            "x-amz-credential", "x-amz-security-token"};

    /**
     * The first three characters of every {@link #SECRET_NAMES} part, as a bit set over a 6-bit
     * letter code: a name that holds none of them holds no part, which is the common case.
     */
    private static final long[] SECRET_TRIGRAMS = new long[(1 << 18) / 64];

    static {
        for (String part : SECRET_NAMES) {
            int t = trigram(part.charAt(0), part.charAt(1), part.charAt(2));
            SECRET_TRIGRAMS[t >>> 6] |= 1L << t;
        }
    }

    private static int code(char c) {
        char l = Text.lower(c);
        if (l >= 'a' && l <= 'z') {
            return l - 'a' + 1;
        }
        if (l >= '0' && l <= '9') {
            return l - '0' + 27;
        }
        return l == '_' ? 37 : l == '-' ? 38 : 0;
    }

    private static int trigram(char a, char b, char c) {
        return code(a) << 12 | code(b) << 6 | code(c);
    }

    private static boolean hasSecretTrigram(String text, int start, int end) {
        for (int i = start; i + 3 <= end; i++) {
            int t = trigram(text.charAt(i), text.charAt(i + 1), text.charAt(i + 2));
            if ((SECRET_TRIGRAMS[t >>> 6] & 1L << t) != 0) {
                return true;
            }
        }
        return false;
    }

    static boolean isCodeOrKey(String text, int start, int end) {
        return end - start == 3 && Text.matchesIgnoreCase(text, start, "key")
                || end - start == 4 && Text.matchesIgnoreCase(text, start, "code");
    }

    /**
     * An error code or a lookup key rather than a secret: runs of letters of one case, each maybe
     * ending in a few digits, joined by {@code _}, {@code -} or {@code .} ({@code RATE_LIMITED},
     * {@code unsupported_capability}, {@code not-found}, {@code ENOENT}, {@code PGRST116}), and
     * numbers of at most five digits ({@code 23505}). Secrets mix cases, or put digits inside
     * letters ({@code 4/0AX4Xf…}, {@code AKIAIOSFODNN7EXAMPLE}, {@code sk_live_4eC39…}); a
     * six-digit one-time code is a longer number.
     */
    static boolean isIdentifier(String text, int start, int end) {
        int len = end - start;
        if (len == 0 || len > 64) {
            return false;
        }
        int i = start;
        while (true) {
            int caseKind = 0; // 1 upper, 2 lower
            int lettersAt = i;
            while (i < end && (Text.isUpper(text.charAt(i)) || Text.isLower(text.charAt(i)))) {
                int kind = Text.isUpper(text.charAt(i)) ? 1 : 2;
                if (caseKind != 0 && kind != caseKind) {
                    return false;
                }
                caseKind = kind;
                i++;
            }
            int digitsAt = i;
            while (i < end && Text.isDigit(text.charAt(i))) {
                i++;
            }
            int digits = i - digitsAt;
            if (i == lettersAt || digits > 5) {
                return false; // an empty run, or a long number (an account, a one-time code)
            }
            if (i == end) {
                return true;
            }
            char c = text.charAt(i);
            if ((c != '_' && c != '-' && c != '.') || i + 1 == end) {
                return false;
            }
            i++;
        }
    }

    /**
     * {@code PWD} and {@code OLDPWD} followed by the working directory a shell exports, not a
     * password ({@link WorkingDirectories}).
     */
    static boolean isWorkingDirectory(String text, int nameStart, int nameEnd, int valueStart, int valueEnd) {
        return nameEnd - nameStart >= 3 && Text.matchesIgnoreCase(text, nameEnd - 3, "pwd")
                && (nameEnd - nameStart == 3 || nameEnd - nameStart == 6 && Text.matchesIgnoreCase(text, nameStart, "old"))
                && WorkingDirectories.isOne(text, valueStart, valueEnd);
    }

    /** Exact names that are also everyday words: only "name=value" or "name: value" counts for them. */
    static boolean isCommonWord(String text, int start, int end) {
        String name = text.substring(start, end).toLowerCase(Locale.ROOT);
        return name.equals("code") || name.equals("key") || name.equals("pass") || name.equals("auth")
                || name.equals("session");
    }

    static boolean isSecretName(String text, int start, int end) {
        int len = end - start;
        if (len < 2 || len > 64) {
            return false;
        }
        for (String exact : EXACT_NAMES) {
            if (exact.length() == len && Text.matchesIgnoreCase(text, start, exact)) {
                return true;
            }
        }
        if (!hasSecretTrigram(text, start, end)) {
            return false; // most names: decided without building a string
        }
        String name = text.substring(start, end).toLowerCase(Locale.ROOT);
        boolean secret = false;
        for (String part : SECRET_NAMES) {
            if (name.contains(part)) {
                secret = true;
                break;
            }
        }
        if (!secret) {
            return false;
        }
        for (String part : NOT_SECRET_NAMES) {
            if (name.contains(part)) {
                return false;
            }
        }
        return true;
    }

}
