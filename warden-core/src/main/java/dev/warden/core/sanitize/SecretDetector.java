package dev.warden.core.sanitize;

import java.util.List;
import java.util.Locale;

/**
 * Credentials: cloud keys (AWS, GCP, Azure), VCS, chat, payment and LLM API tokens (GitHub,
 * GitLab, Slack, Stripe, OpenAI/Anthropic-style {@code sk-}), JWTs, {@code Authorization} and
 * {@code Bearer} values, PEM private keys, passwords in URLs, secret-named keys in connection
 * strings, config and env dumps and query strings, and high-entropy tokens next to secret-ish
 * names. One left-to-right pass over word-like tokens; each check is bounded.
 */
public final class SecretDetector implements WordScanner {

    /** A token prefix, the least that must follow it, and the finding kind. */
    private record Prefix(String prefix, int minBody, String kind) {
    }

    private static final Prefix[] PREFIXES = {
            new Prefix("AKIA", 16, "aws-access-key"), new Prefix("ASIA", 16, "aws-access-key"),
            new Prefix("AGPA", 16, "aws-access-key"), new Prefix("AIDA", 16, "aws-access-key"),
            new Prefix("AROA", 16, "aws-access-key"), new Prefix("ANPA", 16, "aws-access-key"),
            new Prefix("AIPA", 16, "aws-access-key"), new Prefix("ABIA", 16, "aws-access-key"),
            new Prefix("ghp_", 30, "github-token"), new Prefix("gho_", 30, "github-token"),
            new Prefix("ghu_", 30, "github-token"), new Prefix("ghs_", 30, "github-token"),
            new Prefix("ghr_", 30, "github-token"), new Prefix("github_pat_", 22, "github-token"),
            new Prefix("glpat-", 20, "gitlab-token"), new Prefix("gldt-", 20, "gitlab-token"),
            new Prefix("glptt-", 20, "gitlab-token"), new Prefix("glrt-", 20, "gitlab-token"),
            new Prefix("glsoat-", 20, "gitlab-token"), new Prefix("xoxb-", 10, "slack-token"),
            new Prefix("xoxp-", 10, "slack-token"), new Prefix("xoxa-", 10, "slack-token"),
            new Prefix("xoxr-", 10, "slack-token"), new Prefix("xoxs-", 10, "slack-token"),
            new Prefix("xapp-", 10, "slack-token"), new Prefix("sk_live_", 10, "stripe-key"),
            new Prefix("sk_test_", 10, "stripe-key"), new Prefix("rk_live_", 10, "stripe-key"),
            new Prefix("rk_test_", 10, "stripe-key"), new Prefix("whsec_", 16, "stripe-key"),
            new Prefix("sk-ant-", 20, "llm-api-key"), new Prefix("sk-proj-", 20, "llm-api-key"),
            new Prefix("sk-", 20, "llm-api-key"), new Prefix("AIza", 30, "gcp-api-key"),
            new Prefix("ya29.", 20, "gcp-oauth-token"), new Prefix("npm_", 30, "npm-token"),
            new Prefix("pypi-", 50, "pypi-token"), new Prefix("hf_", 30, "huggingface-token"),
            new Prefix("dop_v1_", 40, "digitalocean-token"), new Prefix("shpat_", 30, "shopify-token"),
            new Prefix("SG.", 20, "sendgrid-key"), new Prefix("SK", 32, "twilio-key")
    };

    private static final Prefix[][] PREFIXES_BY_FIRST_CHAR =
            Text.byFirstChar(PREFIXES, Prefix::prefix, Prefix[]::new, new Prefix[128][]);

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

    @Override
    public Category category() {
        return Category.SECRET;
    }

    /**
     * Three kinds of place, taken in text order: PEM blocks (found by their rarer {@code BEGIN }),
     * URL authorities (from the colons the word index noted) and tokens (runs of letters, digits,
     * {@code _} and {@code -}, assembled from the shared words). A finding's span is consumed: nothing starting inside it is
     * looked at again.
     */
    @Override
    public void scan(Words words, List<Finding> out) {
        String text = words.text();
        int[] prev = {-1, -1, -1, -1};
        int resume = 0;
        int nextPem = nextPem(text, 0);
        Words.Positions colons = words.colons();
        Words.Positions equalsSigns = words.equalsSigns();
        int urlColon = nextUrl(text, colons, 0); // index into colons of the next "://", or colons.size()
        int nextUrl = colons.getOrMax(urlColon);
        int count = words.count();
        int colon = 0; // index of the first ':' at or after the last token's end
        int equals = 0;
        int w = 0;
        while (true) {
            int tokenStart = Integer.MAX_VALUE;
            int flags = 0;
            if (w < count) {
                flags = words.flags(w);
                tokenStart = (flags & Words.JOINED_BEFORE) != 0 ? tokenStart(text, words.start(w)) : words.start(w);
            }
            // ':' is no token character, so a URL never starts where a token does; a PEM block may.
            if (Math.min(nextPem, nextUrl) <= tokenStart) {
                if (nextPem == Integer.MAX_VALUE && nextUrl == Integer.MAX_VALUE) {
                    return;
                }
                if (nextPem <= nextUrl) {
                    int at = nextPem;
                    nextPem = nextPem(text, at + 1);
                    if (at >= resume && (at == 0 || !isTokenChar(text.charAt(at - 1)))) {
                        int end = pem(text, at);
                        if (end > 0) {
                            out.add(new Finding(Category.SECRET, "private-key", at, end));
                            resume = end;
                        }
                    }
                } else {
                    int at = nextUrl;
                    urlColon = nextUrl(text, colons, urlColon + 1);
                    nextUrl = colons.getOrMax(urlColon);
                    if (at >= resume) {
                        resume = Math.max(at + 3, urlUserinfo(text, at + 3, out));
                    }
                }
                continue;
            }
            // The token: this word and the words joined to it by '-' or '_'.
            int tokenEnd = words.end(w++);
            if ((flags & Words.JOINED_AFTER) != 0) {
                tokenEnd = joined(words, w, tokenEnd);
                w = words.firstAtOrAfter(w, tokenEnd);
            }
            if (tokenStart >= resume) {
                // Forward-only cursors over the separators the word index noted: linear overall.
                while (colon < colons.size() && colons.get(colon) < tokenEnd) {
                    colon++;
                }
                while (equals < equalsSigns.size() && equalsSigns.get(equals) < tokenEnd) {
                    equals++;
                }
                // A key's separator follows within a quote and four spaces (mayBeFollowedByValue).
                boolean separatorNear = Math.min(colons.getOrMax(colon), equalsSigns.getOrMax(equals)) - tokenEnd <= 5;
                int len = tokenEnd - tokenStart;
                // Most tokens are short words with no ':' or '=' after them, which no rule in token()
                // can match: decided here, with non-short-circuit '&' (one branch, not five), since
                // token() is too large to inline.
                char first = text.charAt(tokenStart);
                boolean plainWord = (len < 14) & !separatorNear & !(len == 6 & (first | 0x20) == 'b')
                        & !(len == 13 & (first | 0x20) == 'a') & (first != 'e');
                int next = len < 3 || plainWord ? tokenEnd : token(text, tokenStart, tokenEnd, out, prev);
                prev[2] = prev[0];
                prev[3] = prev[1];
                prev[0] = tokenStart;
                prev[1] = tokenEnd;
                resume = Math.max(next, tokenEnd);
            }
        }
    }

    /** The index of the first colon from {@code from} on that opens "://", or {@code colons.size()}. */
    private static int nextUrl(String text, Words.Positions colons, int from) {
        int i = from;
        while (i < colons.size() && !text.startsWith("//", colons.get(i) + 1)) {
            i++;
        }
        return i;
    }


    /** The next "-----BEGIN ", found by its rarer word: text full of dashes (Markdown tables) has many '-'. */
    private static int nextPem(String text, int from) {
        int begin = text.indexOf("BEGIN ", from + 5);
        while (begin >= 0 && !text.startsWith("-----", begin - 5)) {
            begin = text.indexOf("BEGIN ", begin + 1);
        }
        return begin < 0 ? Integer.MAX_VALUE : begin - 5;
    }

    private static boolean isJoiner(char c) {
        return c == '-' || c == '_';
    }

    /** The end of a token whose word {@code w - 1} is followed by a joiner at {@code end}. */
    private static int joined(Words words, int w, int end) {
        String text = words.text();
        int n = text.length();
        int next = w;
        int tokenEnd = end;
        while (true) {
            int j = tokenEnd;
            while (j < n && isJoiner(text.charAt(j))) {
                j++;
            }
            if (next < words.count() && j == words.start(next)) {
                tokenEnd = words.end(next++);
            } else {
                return j;
            }
        }
    }

    /** A token may open with '-' or '_' ("--password", "_secret"): where it starts, given its first word. */
    private static int tokenStart(String text, int wordStart) {
        int i = wordStart;
        while (i > 0 && isJoiner(text.charAt(i - 1))) {
            i--;
        }
        return i;
    }

    /** The shortest token any prefix rule can match (a prefix plus its minimum body). */
    private static final int MIN_PREFIXED_TOKEN = 14;

    /** Checks one token; returns where scanning resumes. */
    private static int token(String text, int start, int end, List<Finding> out, int[] prev) {
        int len = end - start;
        char first = text.charAt(start);
        // JWT: three base64url parts joined by dots, starting with {"
        if (first == 'e' && text.startsWith("eyJ", start)) {
            int jwtEnd = jwt(text, start);
            if (jwtEnd > 0) {
                out.add(new Finding(Category.SECRET, "jwt", start, jwtEnd));
                return jwtEnd;
            }
        }
        Prefix[] candidates = first < 128 && len >= MIN_PREFIXED_TOKEN ? PREFIXES_BY_FIRST_CHAR[first] : null;
        if (candidates != null) {
            for (Prefix prefix : candidates) {
                String p = prefix.prefix();
                if (len >= p.length() + prefix.minBody() && text.startsWith(p, start)) {
                    if (prefix.kind().equals("aws-access-key") && !upperAlnum(text, start + 4, end)) {
                        continue;
                    }
                    if (prefix.kind().equals("twilio-key") && !hex(text, start + 2, end)) {
                        continue;
                    }
                    int tokenEnd = p.equals("SG.") || p.equals("ya29.") ? extendDots(text, end) : end;
                    out.add(new Finding(Category.SECRET, prefix.kind(), start, tokenEnd));
                    return tokenEnd;
                }
            }
        }
        if (len == 6 && (first == 'B' || first == 'b') && Text.matchesIgnoreCase(text, start, "bearer")) {
            int valueStart = skip(text, end, " ");
            int valueEnd = valueEnd(text, valueStart);
            if (valueEnd - valueStart >= 8) {
                out.add(new Finding(Category.SECRET, "bearer-token", valueStart, valueEnd));
                return valueEnd;
            }
        }
        if ((first == 'A' || first == 'a') && len == 13 && Text.matchesIgnoreCase(text, start, "authorization")) {
            int sep = skip(text, end, " \"'");
            if (sep < text.length() && (text.charAt(sep) == ':' || text.charAt(sep) == '=')) {
                int valueStart = skip(text, sep + 1, " \"'");
                // Bounded, so a hostile line of repeated headers stays linear.
                int valueEnd = Math.min(Text.lineEnd(text, valueStart, valueStart + 4096), text.length());
                int quote = firstOf(text, valueStart, valueEnd, "\"'");
                if (quote >= 0) {
                    valueEnd = quote;
                }
                if (valueEnd > valueStart) {
                    out.add(new Finding(Category.SECRET, "authorization", valueStart, valueEnd));
                    return valueEnd;
                }
            }
        }
        if (afterSecretName(text, start, end, prev)) {
            out.add(new Finding(Category.SECRET, "credential", start, end));
            return end;
        }
        if (mayBeFollowedByValue(text, end) && isSecretName(text, start, end)) {
            return keyValue(text, start, end, out);
        }
        return end;
    }

    /** Cheap filter before the name check: is a separator ({@code =} or {@code :}) next? */
    private static boolean mayBeFollowedByValue(String text, int end) {
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
    private static boolean afterSecretName(String text, int start, int end, int[] prev) {
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
        return isSecretName(text, nameStart, nameEnd) && !isCommonWord(text, nameStart, nameEnd)
                && Text.entropy(text, start, end) >= 3.0;
    }

    /** After a secret-ish name: {@code name=value}, {@code name: value}, {@code "name": "value"}, {@code name value}. */
    private static int keyValue(String text, int nameStart, int nameEnd, List<Finding> out) {
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
            if (isCodeOrKey(text, nameStart, nameEnd) && isIdentifier(text, valueStart, valueEnd)) {
                return Math.max(nameEnd, valueEnd); // {"code":"RATE_LIMITED"}, code=ENOENT, "key": "user_email"
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

    private static boolean isCodeOrKey(String text, int start, int end) {
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

    /** Exact names that are also everyday words: only "name=value" or "name: value" counts for them. */
    private static boolean isCommonWord(String text, int start, int end) {
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

    /** {@code scheme://user:password@host}: reports the password. */
    private static int urlUserinfo(String text, int authorityStart, List<Finding> out) {
        int n = text.length();
        int i = authorityStart;
        int colon = -1;
        int limit = Math.min(n, authorityStart + 512);
        while (i < limit) {
            char c = text.charAt(i);
            if (c == '@') {
                if (colon >= 0 && i > colon + 1) {
                    out.add(new Finding(Category.SECRET, "url-password", colon + 1, i));
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

    private static int pem(String text, int start) {
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

    private static int jwt(String text, int start) {
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

    private static int extendDots(String text, int end) {
        int i = end;
        while (i + 1 < text.length() && text.charAt(i) == '.' && isTokenChar(text.charAt(i + 1))) {
            i++;
            while (i < text.length() && isTokenChar(text.charAt(i))) {
                i++;
            }
        }
        return i;
    }

    private static boolean upperAlnum(String text, int s, int e) {
        for (int i = s; i < e; i++) {
            char c = text.charAt(i);
            if (!Text.isUpper(c) && !Text.isDigit(c)) {
                return false;
            }
        }
        return e - s == 16;
    }

    private static boolean hex(String text, int s, int e) {
        for (int i = s; i < e; i++) {
            char c = text.charAt(i);
            if (!Text.isDigit(c) && !(c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return e - s == 32;
    }

    private static int valueEnd(String text, int s) {
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

    private static int skip(String text, int from, String chars) {
        int i = from;
        while (i < text.length() && chars.indexOf(text.charAt(i)) >= 0) {
            i++;
        }
        return i;
    }

    private static int firstOf(String text, int s, int e, String chars) {
        for (int i = s; i < e; i++) {
            if (chars.indexOf(text.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isTokenChar(char c) {
        return Text.isAlnum(c) || c == '_' || c == '-';
    }
}
