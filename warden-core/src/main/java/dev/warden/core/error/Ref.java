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
        // One draw of 80 random bits, 5 per character (the alphabet has 32 letters): one call into
        // the shared SecureRandom per ref, not one per character (each is a locked digest, and the
        // failure path makes a ref for every failing call).
        byte[] bits = new byte[LENGTH * 5 / 8];
        RANDOM.nextBytes(bits);
        char[] chars = new char[PREFIX.length() + LENGTH];
        PREFIX.getChars(0, PREFIX.length(), chars, 0);
        long high = 0;
        for (int i = 0; i < 8; i++) {
            high = high << 8 | (bits[i] & 0xFF);
        }
        int low = (bits[8] & 0xFF) << 8 | (bits[9] & 0xFF);
        for (int i = 0; i < 12; i++) {
            chars[PREFIX.length() + i] = ALPHABET.charAt((int) (high >>> (59 - 5 * i)) & 31);
        }
        // bits 0..3 of high and the 16 of low make the last four characters
        long rest = (high & 0xF) << 16 | low;
        for (int i = 0; i < 4; i++) {
            chars[PREFIX.length() + 12 + i] = ALPHABET.charAt((int) (rest >>> (15 - 5 * i)) & 31);
        }
        return new Ref(new String(chars));
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
