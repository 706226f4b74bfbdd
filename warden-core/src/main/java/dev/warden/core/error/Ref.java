package dev.warden.core.error;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
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
    /** The characters of a ref's text: {@code ref_} and 16. */
    public static final int TEXT_LENGTH = PREFIX.length() + LENGTH;

    /** A ref standing in a text, from {@code start}. */
    public record Occurrence(int start, Ref ref) {
        public Occurrence {
            Objects.requireNonNull(ref, "ref");
            if (start < 0) {
                throw new IllegalArgumentException("start must be at least 0, was " + start);
            }
        }

        public int end() {
            return start + TEXT_LENGTH;
        }
    }

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

    /**
     * Every well-formed ref standing alone in {@code text} (no letter, digit or {@code _} on either
     * side), in order; found by {@code indexOf}, so linear in the text whatever it holds.
     */
    public static List<Occurrence> occurrences(String text) {
        List<Occurrence> found = new ArrayList<>();
        for (int at = text.indexOf(PREFIX); at >= 0; at = text.indexOf(PREFIX, at + 1)) {
            int end = at + TEXT_LENGTH;
            if (end <= text.length() && (at == 0 || !word(text.charAt(at - 1)))
                    && (end == text.length() || !word(text.charAt(end))) && isWellFormed(text.substring(at, end))) {
                found.add(new Occurrence(at, new Ref(text.substring(at, end))));
                at = end - 1;
            }
        }
        return found;
    }

    private static boolean word(char c) {
        return c == '_' || Character.isLetterOrDigit(c);
    }

    @Override
    public String toString() {
        return value;
    }
}
