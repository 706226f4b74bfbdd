package dev.warden.core.error;

import java.security.SecureRandom;
import java.util.Objects;

/**
 * A reference id that ties what the peer sees to what the operator can look up. It is random, so
 * it reveals nothing about timing or volume, and short enough to read out over the phone.
 */
public record Ref(String value) {

    private static final String ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";
    private static final int LENGTH = 16;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String PREFIX = "ref_";

    public Ref {
        Objects.requireNonNull(value, "value");
        if (!isWellFormed(value)) {
            throw new IllegalArgumentException("a ref is \"ref_\" and 16 characters of [a-km-z2-9]");
        }
    }

    public static Ref random() {
        char[] chars = new char[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            chars[i] = ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length()));
        }
        return new Ref(PREFIX + new String(chars));
    }

    public static boolean isWellFormed(String value) {
        if (value.length() != PREFIX.length() + LENGTH || !value.startsWith(PREFIX)) {
            return false;
        }
        for (int i = PREFIX.length(); i < value.length(); i++) {
            if (ALPHABET.indexOf(value.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return value;
    }
}
