package dev.warden.core.sanitize;

import dev.warden.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Compact JWS and JWE (RFC 7515 and 7516 section 7.1): base64url segments joined by dots, the
 * first of which decodes to a JSON object naming its {@code alg}. A JWS must be signed (not
 * {@code alg: none}) and carry a JSON claims set; a JWE (its header names {@code enc}) has five
 * segments. Anything else that starts with {@code eyJ}, such as a bare base64 JSON value, is left.
 */
final class JsonWebTokens {

    /** A protected header is a few hundred bytes; a longer first segment is not one. */
    private static final int MAX_HEADER = 4096;
    /** A signature or authentication tag of at least 12 bytes (RFC 7518's smallest MAC is 16). */
    private static final int MIN_TAG = 16;

    private JsonWebTokens() {
    }

    /** Matches at {@code at} (where a token may start); returns where scanning resumes, or -1. */
    static int match(String text, int at, List<CredentialFinding> out) {
        if (!text.startsWith("eyJ", at)) {
            return -1;
        }
        int headerEnd = CharClass.BASE64URL.runEnd(text, at, MAX_HEADER + 1);
        if (headerEnd - at > MAX_HEADER || !isDot(text, headerEnd)) {
            return -1;
        }
        JsonNode header = decodeObject(text, at, headerEnd).orElse(null);
        if (header == null || !header.path("alg").isString()
                || "none".equalsIgnoreCase(header.path("alg").stringValue())) {
            return -1;
        }
        int end = header.has("enc") ? jwe(text, headerEnd + 1) : jws(text, headerEnd + 1);
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

    /** The segment decoded and read as a JSON object, if it is one. */
    private static Optional<JsonNode> decodeObject(String text, int start, int end) {
        return decode(text, start, end).flatMap(bytes -> {
            try {
                JsonNode node = Json.mapper().readTree(new String(bytes, StandardCharsets.UTF_8));
                return node != null && node.isObject() ? Optional.of(node) : Optional.empty();
            } catch (JacksonException notJson) {
                return Optional.empty();
            }
        });
    }

    /** Does the segment's first non-blank decoded byte open an object? Only its head is decoded. */
    private static boolean startsJsonObject(String text, int start, int end) {
        int headEnd = start + Math.min(8, (end - start) / 4 * 4);
        for (byte b : decode(text, start, headEnd).orElse(new byte[0])) {
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return b == '{';
            }
        }
        return false;
    }

    private static Optional<byte[]> decode(String text, int start, int end) {
        if (end - start < 2 || (end - start) % 4 == 1) {
            return Optional.empty();
        }
        try {
            return Optional.of(Base64.getUrlDecoder().decode(text.substring(start, end)));
        } catch (IllegalArgumentException notBase64) {
            return Optional.empty();
        }
    }
}
