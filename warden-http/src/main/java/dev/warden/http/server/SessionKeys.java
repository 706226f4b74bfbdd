package dev.warden.http.server;

import dev.warden.http.server.internal.seal.SealKey;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The keys that seal session ids, so that any replica holding them can serve a session another
 * opened ({@link McpHttpServerBuilder#portableSessions}): the current key seals, it and the
 * older ones open (a rotation adds a key as older everywhere, then makes it current, then drops
 * the old one). Each key is an id, sent in the clear in the session id so the right key is tried,
 * and 32 secret bytes (AES-256-GCM). The secrets never print.
 *
 * <pre>{@code
 * SessionKeys keys = SessionKeys.parse(Files.readString(Path.of("/etc/warden/session-keys")));
 * }</pre>
 */
public final class SessionKeys {

    /** A key's length in bytes: AES-256. */
    public static final int SECRET_BYTES = SealKey.SECRET_BYTES;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final List<SealKey> keys;

    private SessionKeys(List<SealKey> keys) {
        Set<String> ids = new HashSet<>();
        for (SealKey k : keys) {
            if (!ids.add(k.id())) {
                throw new IllegalArgumentException("session key id " + k.id() + " appears twice");
            }
        }
        this.keys = List.copyOf(keys);
    }

    /** A ring of one key, which seals and opens. */
    public static SessionKeys of(String id, byte[] secret) {
        return new SessionKeys(List.of(new SealKey(id, secret)));
    }

    /** This ring and one more key that only opens (a key being rotated in, or out). */
    public SessionKeys withOlder(String id, byte[] secret) {
        List<SealKey> more = new ArrayList<>(keys);
        more.add(new SealKey(id, secret));
        return new SessionKeys(more);
    }

    /**
     * A ring from text: one key per line, {@code ID BASE64URL-SECRET}; the first seals; blank
     * lines and lines starting with {@code #} are skipped. An error names the line, never its secret.
     */
    public static SessionKeys parse(String text) {
        Objects.requireNonNull(text, "text");
        List<SealKey> keys = new ArrayList<>();
        String[] lines = text.split("\\R");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s+");
            if (parts.length != 2) {
                throw new IllegalArgumentException("session keys, line " + (i + 1) + ": expected an id and a "
                        + "base64url secret separated by a space");
            }
            byte[] secret;
            try {
                secret = Base64.getUrlDecoder().decode(parts[1]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("session keys, line " + (i + 1) + ": the secret is not base64url");
            }
            try {
                keys.add(new SealKey(parts[0], secret));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("session keys, line " + (i + 1) + ": " + e.getMessage());
            }
        }
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("session keys: no key found");
        }
        return new SessionKeys(keys);
    }

    /** A new random key as a line {@link #parse} reads ({@code ID SECRET}). */
    public static String newKeyLine(String id) {
        byte[] secret = new byte[SECRET_BYTES];
        RANDOM.nextBytes(secret);
        return new SealKey(id, secret).id() + " " + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    }

    /** The ids, the sealing one first. */
    public List<String> ids() {
        return keys.stream().map(SealKey::id).toList();
    }

    /**
     * A key per key of the ring for another use than sealing, HMAC-SHA256(secret, {@code label}),
     * the current one first: so that what the replicas already share (their bus's signatures, say)
     * needs no second secret, and a key made for one use is worthless for the other. The secrets
     * themselves never leave this class.
     */
    public List<byte[]> derived(String label) {
        Objects.requireNonNull(label, "label");
        List<byte[]> derived = new ArrayList<>(keys.size());
        for (SealKey k : keys) {
            try {
                javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
                mac.init(new javax.crypto.spec.SecretKeySpec(k.secret(), "HmacSHA256"));
                derived.add(mac.doFinal(label.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            } catch (java.security.GeneralSecurityException e) {
                throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
            }
        }
        return derived;
    }

    /** The keys, the sealing one first. */
    List<SealKey> keys() {
        return keys;
    }

    @Override
    public String toString() {
        return "SessionKeys" + ids();
    }
}
