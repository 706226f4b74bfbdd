package dev.warden.audit;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The key evidence fingerprints are made with: 32 random bytes drawn for each audit run and never
 * written anywhere, so two findings of one report that hold the same value show the same
 * fingerprint, but nobody holding a report can confirm a guess (an unsalted hash of a weak secret
 * could be matched against a dictionary). A run binds its key while it runs ({@link #during});
 * outside a run (a report built by hand) the process's own random key is used.
 */
final class FingerprintKey {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final FingerprintKey PROCESS = random();
    /**
     * Bound on the run's own thread only, where every finding is made: not inherited, since a
     * thread a run starts (an HTTP client's, a pool's) may outlive the run and would keep its key.
     */
    private static final ThreadLocal<FingerprintKey> CURRENT = new ThreadLocal<>();

    private final SecretKeySpec key;

    private FingerprintKey(byte[] bytes) {
        this.key = new SecretKeySpec(bytes, "HmacSHA256");
    }

    static FingerprintKey random() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return new FingerprintKey(bytes);
    }

    /** The key of the run on this thread, or the process's. */
    static FingerprintKey current() {
        FingerprintKey bound = CURRENT.get();
        return bound == null ? PROCESS : bound;
    }

    /** Runs {@code body} with this key bound, then unbinds it (whatever was bound before is restored). */
    <T> T during(java.util.function.Supplier<T> body) {
        FingerprintKey before = CURRENT.get();
        CURRENT.set(this);
        try {
            return body.get();
        } finally {
            if (before == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(before);
            }
        }
    }

    /** The first 12 hex digits of HMAC-SHA256(key, value). */
    String fingerprint(String value) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            byte[] digest = mac.doFinal(value.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 6);
        } catch (GeneralSecurityException e) {
            throw new AssertionError("every JDK has HmacSHA256", e);
        }
    }
}
