package dev.warden.audit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * What a report says about a leaked value: its category and a fingerprint, never the value (the
 * report must not become the leak). The same value always has the same fingerprint, so two reports
 * can be compared and a fix confirmed.
 *
 * @param category    what the value is ({@code stack-trace}, {@code path}, {@code secret}, …)
 * @param fingerprint the first 12 hex digits of the value's SHA-256
 * @param length      how long the value was, in characters
 */
public record Evidence(String category, String fingerprint, int length) {

    public Evidence {
        Objects.requireNonNull(category, "category");
        if (fingerprint == null || !fingerprint.matches("[0-9a-f]{12}")) {
            throw new IllegalArgumentException("a fingerprint is 12 lower-case hex digits, got " + fingerprint);
        }
        if (length < 0) {
            throw new IllegalArgumentException("length must not be negative, got " + length);
        }
    }

    /** The evidence of {@code value}: its fingerprint, computed here, and its length. */
    public static Evidence of(String category, String value) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
            return new Evidence(category, HexFormat.of().formatHex(digest).substring(0, 12), value.length());
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
    }
}
