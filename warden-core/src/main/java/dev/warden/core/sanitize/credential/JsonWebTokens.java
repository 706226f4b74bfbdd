package dev.warden.core.sanitize.credential;

import dev.warden.core.sanitize.detection.CredentialFinding;
import dev.warden.core.sanitize.detection.CredentialKind;
import dev.warden.core.sanitize.scan.CharClass;
import dev.warden.core.sanitize.scan.TokenBoundary;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Compact JWS and JWE (RFC 7515 and 7516 section 7.1): base64url segments joined by dots, the
 * first of which decodes to a JSON object naming its {@code alg} (checked by hand on the decoded
 * bytes: a full JSON parse per candidate would cost more than the scan). A JWS must be signed (not
 * {@code alg: none}) and carry a JSON claims set; a JWE (its header names {@code enc}) has five
 * segments. Anything else that starts with {@code eyJ}, such as a bare base64 JSON value, is left.
 */
public final class JsonWebTokens {

    /** A protected header is a few hundred bytes; a longer first segment is not one. */
    private static final int MAX_HEADER = 4096;
    /** A signature or authentication tag of at least 12 bytes (RFC 7518's smallest MAC is 16). */
    private static final int MIN_TAG = 16;

    private JsonWebTokens() {
    }

    /** Matches at {@code at} (where a token may start); returns where scanning resumes, or -1. */
    public static int match(String text, int at, List<CredentialFinding> out) {
        if (!text.startsWith("eyJ", at)) {
            return -1;
        }
        int headerEnd = CharClass.BASE64URL.runEnd(text, at, MAX_HEADER + 1);
        if (headerEnd - at > MAX_HEADER || !isDot(text, headerEnd)) {
            return -1;
        }
        byte[] header = decode(text, at, headerEnd);
        if (!isObject(header) || !hasSignedAlg(header)) {
            return -1;
        }
        int end = member(header, "enc") >= 0 ? jwe(text, headerEnd + 1) : jws(text, headerEnd + 1);
        if (end < 0 || !TokenBoundary.after(text, end)) {
            return -1;
        }
        out.add(new CredentialFinding(CredentialKind.JWT, at, end - at));
        return end;
    }

    /** Payload (a JSON object) '.' signature. */
    private static int jws(String text, int payloadStart) {
        int payloadEnd = CharClass.BASE64URL.runEnd(text, payloadStart, Integer.MAX_VALUE);
        if (!isDot(text, payloadEnd) || !startsJsonObject(text, payloadStart, payloadEnd)) {
            return -1;
        }
        int signatureEnd = CharClass.BASE64URL.runEnd(text, payloadEnd + 1, Integer.MAX_VALUE);
        return signatureEnd - (payloadEnd + 1) >= MIN_TAG ? signatureEnd : -1;
    }

    /** Encrypted key (empty for direct encryption) '.' IV '.' ciphertext '.' tag. */
    private static int jwe(String text, int keyStart) {
        int keyEnd = CharClass.BASE64URL.runEnd(text, keyStart, Integer.MAX_VALUE);
        if (!isDot(text, keyEnd)) {
            return -1;
        }
        int ivEnd = CharClass.BASE64URL.runEnd(text, keyEnd + 1, Integer.MAX_VALUE);
        if (ivEnd - (keyEnd + 1) < 11 || !isDot(text, ivEnd)) {
            return -1;
        }
        int cipherEnd = CharClass.BASE64URL.runEnd(text, ivEnd + 1, Integer.MAX_VALUE);
        if (cipherEnd == ivEnd + 1 || !isDot(text, cipherEnd)) {
            return -1;
        }
        int tagEnd = CharClass.BASE64URL.runEnd(text, cipherEnd + 1, Integer.MAX_VALUE);
        return tagEnd - (cipherEnd + 1) >= MIN_TAG ? tagEnd : -1;
    }

    private static boolean isDot(String text, int at) {
        return at < text.length() && text.charAt(at) == '.';
    }

    /** Does the decoded segment look like a JSON object: first and last non-blank bytes '{' and '}'? */
    private static boolean isObject(byte[] json) {
        int first = 0;
        int last = json.length - 1;
        while (first <= last && isBlank(json[first])) {
            first++;
        }
        while (last >= first && isBlank(json[last])) {
            last--;
        }
        return first < last && json[first] == '{' && json[last] == '}';
    }

    /** Does the object name an {@code alg} whose value is a string other than {@code none}? */
    private static boolean hasSignedAlg(byte[] json) {
        int i = member(json, "alg");
        if (i < 0 || i >= json.length || json[i] != '"') {
            return false;
        }
        int close = i + 1;
        while (close < json.length && json[close] != '"') {
            close++;
        }
        String alg = new String(json, i + 1, close - i - 1, StandardCharsets.US_ASCII);
        return close < json.length && !alg.isEmpty() && !alg.equalsIgnoreCase("none");
    }

    /** Where the value of member {@code "name"} starts (after the colon and blanks), or -1. */
    private static int member(byte[] json, String name) {
        byte[] key = ('"' + name + '"').getBytes(StandardCharsets.US_ASCII);
        outer:
        for (int i = 0; i + key.length <= json.length; i++) {
            for (int k = 0; k < key.length; k++) {
                if (json[i + k] != key[k]) {
                    continue outer;
                }
            }
            int j = i + key.length;
            while (j < json.length && isBlank(json[j])) {
                j++;
            }
            if (j < json.length && json[j] == ':') {
                j++;
                while (j < json.length && isBlank(json[j])) {
                    j++;
                }
                return j;
            }
        }
        return -1;
    }

    /** Does the segment's first non-blank decoded byte open an object? Only its head is decoded. */
    private static boolean startsJsonObject(String text, int start, int end) {
        int headEnd = start + Math.min(8, (end - start) / 4 * 4);
        for (byte b : decode(text, start, headEnd)) {
            if (!isBlank(b)) {
                return b == '{';
            }
        }
        return false;
    }

    private static boolean isBlank(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

    /**
     * Base64url without padding, decoded by hand: no exception and no copy of the text for the
     * many segments that are not tokens. A malformed segment decodes to nothing.
     */
    private static byte[] decode(String text, int start, int end) {
        int length = end - start;
        if (length < 2 || length % 4 == 1) {
            return new byte[0];
        }
        byte[] out = new byte[length * 3 / 4];
        int bits = 0;
        int buffer = 0;
        int o = 0;
        for (int i = start; i < end; i++) {
            int v = sextet(text.charAt(i));
            if (v < 0) {
                return new byte[0];
            }
            buffer = buffer << 6 | v;
            bits += 6;
            if (bits >= 8) {
                bits -= 8;
                out[o++] = (byte) (buffer >> bits);
            }
        }
        return out;
    }

    private static int sextet(char c) {
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 26;
        }
        if (c >= '0' && c <= '9') {
            return c - '0' + 52;
        }
        return c == '-' ? 62 : c == '_' ? 63 : -1;
    }
}
