package dev.warden.server.auth;

import dev.warden.core.error.PermissionDeniedFailure;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.security.spec.InvalidKeySpecException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Checks a username and password without telling an attacker which of the two was wrong.
 *
 * <ul>
 *   <li>one failure, one message: unknown account and wrong password throw the same
 *       {@link PermissionDeniedFailure} with the same text;</li>
 *   <li>the same work either way: for an unknown account the password is hashed against a dummy
 *       hash with the same cost, so timing does not reveal whether the account exists;</li>
 *   <li>the hashes are compared in constant time.</li>
 * </ul>
 *
 * Hashes are PBKDF2-HMAC-SHA256 in the form {@code pbkdf2-sha256$iterations$salt$hash} (base64).
 */
public final class CredentialVerifier {

    public static final String FAILURE_MESSAGE = "Invalid username or password.";
    public static final int DEFAULT_ITERATIONS = 210_000;
    private static final String SCHEME = "pbkdf2-sha256";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** Finds the stored hash for a username; empty when there is no such account. */
    @FunctionalInterface
    public interface AccountLookup {
        Optional<String> passwordHash(String username);
    }

    private final AccountLookup lookup;
    private final String dummyHash;

    private CredentialVerifier(AccountLookup lookup, int iterations) {
        this.lookup = Objects.requireNonNull(lookup, "lookup");
        this.dummyHash = hash(randomPassword(), iterations);
    }

    public static CredentialVerifier of(AccountLookup lookup) {
        return new CredentialVerifier(lookup, DEFAULT_ITERATIONS);
    }

    /** The dummy hash costs {@code iterations}; use the same cost as the stored hashes. */
    public static CredentialVerifier of(AccountLookup lookup, int iterations) {
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations must be positive, got " + iterations);
        }
        return new CredentialVerifier(lookup, iterations);
    }

    /** @throws PermissionDeniedFailure with {@link #FAILURE_MESSAGE} for any failure */
    public void check(String username, char[] password) {
        if (!verify(username, password)) {
            throw new PermissionDeniedFailure(FAILURE_MESSAGE);
        }
    }

    public boolean verify(String username, char[] password) {
        Optional<String> stored = username == null ? Optional.empty() : lookup.passwordHash(username);
        boolean matches = matches(password == null ? new char[0] : password, stored.orElse(dummyHash));
        return stored.isPresent() & matches;
    }

    public static String hash(char[] password, int iterations) {
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        byte[] derived = derive(password, salt, iterations);
        Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
        return SCHEME + "$" + iterations + "$" + b64.encodeToString(salt) + "$" + b64.encodeToString(derived);
    }

    private static boolean matches(char[] password, String encoded) {
        String[] parts = encoded.split("\\$", -1);
        if (parts.length != 4 || !SCHEME.equals(parts[0])) {
            return false;
        }
        try {
            int iterations = Integer.parseInt(parts[1]);
            byte[] salt = Base64.getDecoder().decode(parts[2]);
            byte[] expected = Base64.getDecoder().decode(parts[3]);
            return MessageDigest.isEqual(derive(password, salt, iterations), expected);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static byte[] derive(char[] password, byte[] salt, int iterations) {
        PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, 256);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (NoSuchAlgorithmException | InvalidKeySpecException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA256 is required by the Java platform", e);
        } finally {
            spec.clearPassword();
        }
    }

    private static char[] randomPassword() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        char[] chars = Base64.getEncoder().encodeToString(bytes).toCharArray();
        Arrays.fill(bytes, (byte) 0);
        return chars;
    }
}
