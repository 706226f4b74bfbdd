package dev.warden.http.server.internal.seal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals a small value into a string any holder of the keys can open and nobody else can read or
 * alter: {@code ws1.KEYID.BASE64URL(nonce ‖ AES-256-GCM(issued-at ‖ value))}. The format version,
 * the key id and a purpose label are authenticated with the value (a value sealed for one purpose
 * never opens for another); the issue time is inside, so an old value is refused after the
 * maximum age. Everything is bounded: a value over {@link #MAX_VALUE_BYTES} is not sealed, a
 * string over {@link #MAX_SEALED_CHARS} is refused before it is decoded. Every refusal is one
 * stackless {@link Rejected} naming this component and a reason, never the input; the tag is
 * compared in constant time by the cipher.
 */
public final class SessionSeal {

    /** The format, first in every sealed string. */
    static final String VERSION = "ws1";
    /** The largest value sealed; a larger one is not (its session stays on its replica). */
    public static final int MAX_VALUE_BYTES = 3072;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final int TIME_BYTES = Long.BYTES;
    /** The longest string {@link #open} decodes: a sealed value of the largest size with the longest key id. */
    public static final int MAX_SEALED_CHARS = VERSION.length() + 1 + 16 + 1
            + (NONCE_BYTES + TIME_BYTES + MAX_VALUE_BYTES + TAG_BITS / 8 + 2) / 3 * 4;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** Why a sealed string was refused: for the log, never for the peer. */
    enum Reason {
        MALFORMED("not a sealed value of this format"),
        TOO_LARGE("longer than any sealed value"),
        UNKNOWN_KEY("sealed with a key this replica does not hold"),
        FORGED("does not authenticate: altered, or sealed with another secret or for another purpose"),
        EXPIRED("older than the maximum age");

        private final String text;

        Reason(String text) {
            this.text = text;
        }
    }

    /**
     * A sealed string refused; stackless, as it is expected and frequent (a client's stale id).
     * Checked and kept in this package: each caller must decide, and none lets it escape.
     */
    public static final class Rejected extends Exception {
        private final Reason reason;

        Rejected(Reason reason) {
            super("session seal: " + reason.text, null, false, false);
            this.reason = reason;
        }

        Reason reason() {
            return reason;
        }
    }

    private final byte[] purpose;
    private final String sealingKey;
    private final Map<String, SecretKeySpec> keys = new LinkedHashMap<>();
    private final Duration maxAge;
    private final InstantSource clock;

    /**
     * @param purpose what the sealed values are for (authenticated with each, so two purposes never mix)
     * @param ring    the keys, the sealing one first
     * @param maxAge  how long after sealing a value still opens
     */
    public SessionSeal(String purpose, List<SealKey> ring, Duration maxAge, InstantSource clock) {
        if (purpose == null || purpose.isEmpty()) {
            throw new IllegalArgumentException("a seal needs a purpose");
        }
        if (ring == null || ring.isEmpty()) {
            throw new IllegalArgumentException("a seal needs at least one key");
        }
        if (maxAge == null || maxAge.isNegative() || maxAge.isZero()) {
            throw new IllegalArgumentException("maxAge must be positive, got " + maxAge);
        }
        this.purpose = purpose.getBytes(StandardCharsets.UTF_8);
        this.sealingKey = ring.get(0).id();
        ring.forEach(k -> keys.put(k.id(), new SecretKeySpec(k.secret(), "AES")));
        this.maxAge = maxAge;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** How long after sealing a value still opens: what a sealed session's shared facts need to outlive. */
    public Duration maxAge() {
        return maxAge;
    }

    /** {@code value} sealed with the current key; empty if it is over {@link #MAX_VALUE_BYTES}. */
    public Optional<String> seal(byte[] value) {
        if (value.length > MAX_VALUE_BYTES) {
            return Optional.empty();
        }
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        ByteBuffer plain = ByteBuffer.allocate(TIME_BYTES + value.length).putLong(clock.millis()).put(value);
        try {
            Cipher cipher = cipher(Cipher.ENCRYPT_MODE, sealingKey, nonce);
            byte[] sealed = cipher.doFinal(plain.array());
            byte[] body = ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
            return Optional.of(VERSION + "." + sealingKey + "." + Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available in this JDK", e);
        }
    }

    /**
     * What a sealed string held: the value, and the instant (epoch milliseconds) after which the
     * string no longer opens, which also bounds whatever was made from it (an open session's copy).
     */
    public record Unsealed(byte[] value, long notAfterMillis) {
        public Unsealed {
            Objects.requireNonNull(value, "value");
        }
    }

    /**
     * The value {@code sealed} holds, if it was sealed by a key of this ring, for this purpose, not
     * too long ago, and is spelled as {@link #seal} spells it: base64url without padding and with
     * zero trailing bits. A lenient decoder reads other spellings as the same bytes; refused, so
     * a sealed value has one spelling, and what is recorded by it (a session's end) holds for all.
     */
    public Unsealed open(String sealed) throws Rejected {
        if (sealed.length() > MAX_SEALED_CHARS) {
            throw new Rejected(Reason.TOO_LARGE);
        }
        int first = sealed.indexOf('.');
        int second = first < 0 ? -1 : sealed.indexOf('.', first + 1);
        if (second < 0 || !VERSION.equals(sealed.substring(0, first))) {
            throw new Rejected(Reason.MALFORMED);
        }
        String encoded = sealed.substring(second + 1);
        byte[] body;
        try {
            body = Base64.getUrlDecoder().decode(encoded);
        } catch (IllegalArgumentException e) {
            throw new Rejected(Reason.MALFORMED);
        }
        if (!Base64.getUrlEncoder().withoutPadding().encodeToString(body).equals(encoded)) {
            throw new Rejected(Reason.MALFORMED); // padded, or trailing bits set: not the one spelling
        }
        if (body.length < NONCE_BYTES + TAG_BITS / 8 + TIME_BYTES) {
            throw new Rejected(Reason.MALFORMED);
        }
        String keyId = sealed.substring(first + 1, second);
        if (!keys.containsKey(keyId)) {
            throw new Rejected(Reason.UNKNOWN_KEY);
        }
        byte[] plain;
        try {
            Cipher cipher = cipher(Cipher.DECRYPT_MODE, keyId, Arrays.copyOf(body, NONCE_BYTES));
            plain = cipher.doFinal(body, NONCE_BYTES, body.length - NONCE_BYTES);
        } catch (AEADBadTagException e) {
            throw new Rejected(Reason.FORGED);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available in this JDK", e);
        }
        long notAfter = ByteBuffer.wrap(plain).getLong() + maxAge.toMillis();
        if (clock.millis() > notAfter) {
            throw new Rejected(Reason.EXPIRED);
        }
        return new Unsealed(Arrays.copyOfRange(plain, TIME_BYTES, plain.length), notAfter);
    }

    /** A cipher for one operation (a Cipher is not thread-safe), the header and purpose as associated data. */
    private Cipher cipher(int mode, String keyId, byte[] nonce) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(mode, keys.get(keyId), new GCMParameterSpec(TAG_BITS, nonce));
        cipher.updateAAD(purpose);
        cipher.updateAAD(new byte[] {0});
        cipher.updateAAD((VERSION + "." + keyId).getBytes(StandardCharsets.US_ASCII));
        return cipher;
    }

    @Override
    public String toString() {
        return "SessionSeal" + keys.keySet();
    }
}
