package dev.warden.core.sanitize.credential;

import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Finding;
import dev.warden.core.sanitize.scan.Text;
import dev.warden.core.sanitize.scan.WordScanner;
import dev.warden.core.sanitize.scan.Words;
import java.util.List;
import java.util.Map;

/**
 * Credentials: cloud keys (AWS, GCP, Azure), VCS, chat, payment and LLM API tokens (GitHub,
 * GitLab, Slack, Stripe, OpenAI/Anthropic-style {@code sk-}), JWTs, {@code Authorization} and
 * {@code Bearer} values, PEM private keys, passwords in URLs, secret-named keys in connection
 * strings, config and env dumps and query strings, and high-entropy tokens next to secret-ish
 * names. One left-to-right pass over word-like tokens; each check is bounded. The prefixed formats
 * are in {@link CredentialFormats}, the other shapes in {@link LooseSecretSpans}, the names that give a value away in {@link SecretNames}, the
 * values after them in {@link SecretValues}.
 */
public final class SecretDetector implements WordScanner {

    /** The rows of {@link CredentialFormats} looked for in error messages, by first character. */
    private static final CredentialFormats.CredentialFormat[][] PREFIXES_BY_FIRST_CHAR = Text.byFirstChar(
            CredentialFormats.ROWS.stream().filter(row -> row.inErrors().isPresent())
                    .toArray(CredentialFormats.CredentialFormat[]::new),
            CredentialFormats.CredentialFormat::prefix, CredentialFormats.CredentialFormat[]::new,
            new CredentialFormats.CredentialFormat[128][]);

    /** The shortest token any prefix row can match (a prefix plus its least body); a quick filter. */
    private static final int MIN_PREFIXED_TOKEN = 14;

    @Override
    public Category category() {
        return Category.SECRET;
    }

    @Override
    public Map<String, Integer> wordClasses() {
        return Map.of();
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
                    if (at >= resume && (at == 0 || !LooseSecretSpans.isTokenChar(text.charAt(at - 1)))) {
                        int end = LooseSecretSpans.pem(text, at);
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
                        resume = Math.max(at + 3, LooseSecretSpans.urlUserinfo(text, at + 3, out));
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

    /** Checks one token; returns where scanning resumes. */
    private static int token(String text, int start, int end, List<Finding> out, int[] prev) {
        int len = end - start;
        char first = text.charAt(start);
        // JWT: three base64url parts joined by dots, starting with {"
        if (first == 'e' && text.startsWith("eyJ", start)) {
            int jwtEnd = LooseSecretSpans.jwt(text, start);
            if (jwtEnd > 0) {
                out.add(new Finding(Category.SECRET, "jwt", start, jwtEnd));
                return jwtEnd;
            }
        }
        CredentialFormats.CredentialFormat[] candidates = first < 128 && len >= MIN_PREFIXED_TOKEN
                ? PREFIXES_BY_FIRST_CHAR[first] : null;
        if (candidates != null) {
            for (CredentialFormats.CredentialFormat format : candidates) {
                String p = format.prefix();
                CredentialFormats.InErrors rule = format.inErrors().orElseThrow();
                if (len >= p.length() + rule.minBody() && text.startsWith(p, start)) {
                    int tokenEnd = rule.end(text, start + p.length(), end);
                    if (tokenEnd >= 0) {
                        out.add(new Finding(Category.SECRET, rule.label(), start, tokenEnd));
                        return tokenEnd;
                    }
                }
            }
        }
        if (len == 6 && (first == 'B' || first == 'b') && Text.matchesIgnoreCase(text, start, "bearer")) {
            int valueStart = SecretValues.skip(text, end, " ");
            int valueEnd = SecretValues.valueEnd(text, valueStart);
            if (valueEnd - valueStart >= 8) {
                out.add(new Finding(Category.SECRET, "bearer-token", valueStart, valueEnd));
                return valueEnd;
            }
        }
        if ((first == 'A' || first == 'a') && len == 13 && Text.matchesIgnoreCase(text, start, "authorization")) {
            int sep = SecretValues.skip(text, end, " \"'");
            if (sep < text.length() && (text.charAt(sep) == ':' || text.charAt(sep) == '=')) {
                int valueStart = SecretValues.skip(text, sep + 1, " \"'");
                // Bounded, so a hostile line of repeated headers stays linear.
                int valueEnd = Math.min(Text.lineEnd(text, valueStart, valueStart + 4096), text.length());
                int quote = SecretValues.firstOf(text, valueStart, valueEnd, "\"'");
                if (quote >= 0) {
                    valueEnd = quote;
                }
                if (valueEnd > valueStart) {
                    out.add(new Finding(Category.SECRET, "authorization", valueStart, valueEnd));
                    return valueEnd;
                }
            }
        }
        if (SecretValues.afterSecretName(text, start, end, prev)) {
            out.add(new Finding(Category.SECRET, "credential", start, end));
            return end;
        }
        if (SecretValues.mayBeFollowedByValue(text, end) && SecretNames.isSecretName(text, start, end)) {
            return SecretValues.keyValue(text, start, end, out);
        }
        return end;
    }
}
