package dev.warden.core.sanitize;

import java.util.List;

/**
 * The fixed formats of credentials {@link SecretDetector} knows by their shape alone: tokens by
 * their provider's prefix (AWS, GitHub, GitLab, Slack, Stripe, LLM APIs, GCP…), PEM private key
 * blocks, JWTs, and the password in a URL's {@code user:password@}.
 */
final class SecretFormats {

    private SecretFormats() {
    }

    /** A token prefix, the least that must follow it, and the finding kind. */
    record Prefix(String prefix, int minBody, String kind) {
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

    static final Prefix[][] PREFIXES_BY_FIRST_CHAR =
            Text.byFirstChar(PREFIXES, Prefix::prefix, Prefix[]::new, new Prefix[128][]);

    /** The shortest token any prefix rule can match (a prefix plus its minimum body). */
    static final int MIN_PREFIXED_TOKEN = 14;

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

    static int extendDots(String text, int end) {
        int i = end;
        while (i + 1 < text.length() && text.charAt(i) == '.' && isTokenChar(text.charAt(i + 1))) {
            i++;
            while (i < text.length() && isTokenChar(text.charAt(i))) {
                i++;
            }
        }
        return i;
    }

    static boolean upperAlnum(String text, int s, int e) {
        for (int i = s; i < e; i++) {
            char c = text.charAt(i);
            if (!Text.isUpper(c) && !Text.isDigit(c)) {
                return false;
            }
        }
        return e - s == 16;
    }

    static boolean hex(String text, int s, int e) {
        for (int i = s; i < e; i++) {
            char c = text.charAt(i);
            if (!Text.isDigit(c) && !(c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return e - s == 32;
    }

    static boolean isTokenChar(char c) {
        return Text.isAlnum(c) || c == '_' || c == '-';
    }
}
