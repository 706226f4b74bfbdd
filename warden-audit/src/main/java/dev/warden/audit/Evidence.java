package dev.warden.audit;

import java.util.Objects;

/**
 * What a report says about a leaked value: its category and a fingerprint, never the value (the
 * report must not become the leak). Within one run the same value has the same fingerprint, so two
 * findings can be matched; the fingerprint is keyed with a random key drawn for the run and never
 * written down (see {@link FingerprintKey}), so a guessed value cannot be confirmed from a report.
 *
 * @param category    what the value is ({@code stack-trace}, {@code path}, {@code secret}, …)
 * @param fingerprint the first 12 hex digits of the value's HMAC-SHA256 under the run's key
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

    /** The evidence of {@code value}: its fingerprint under the current run's key, and its length. */
    public static Evidence of(String category, String value) {
        return new Evidence(category, FingerprintKey.current().fingerprint(value), value.length());
    }
}
