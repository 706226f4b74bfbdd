package dev.warden.audit.http;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;

/**
 * How guessable a server's session ids are, from a few of them: the bits of the part that varies
 * between them (what all share, at the start or the end, is no secret), estimated from its length
 * and alphabet. A version-4 UUID (122 random bits, what the TypeScript SDK issues) passes; a short
 * id, a counter or a timestamp with a few random characters does not.
 */
final class SessionIds {

    /** Below this many varying bits an id counts as guessable. */
    static final int MIN_BITS = 120;

    private SessionIds() {
    }

    /** What is wrong with {@code ids}, in words; empty when nothing is (or there are fewer than two). */
    static Optional<String> weakness(List<String> ids) {
        if (ids.size() < 2) {
            return Optional.empty();
        }
        if (new HashSet<>(ids).size() < ids.size()) {
            return Optional.of("Two sessions were given the same id.");
        }
        int prefix = commonPrefix(ids);
        int suffix = commonSuffix(ids, prefix);
        double least = Double.MAX_VALUE;
        double shortest = Double.MAX_VALUE;
        for (String id : ids) {
            least = Math.min(least, bits(id.substring(prefix, id.length() - suffix)));
            shortest = Math.min(shortest, bits(id));
        }
        if (shortest < MIN_BITS) {
            return Optional.of("Session ids carry about " + (int) shortest + " bits; at least 128 are needed.");
        }
        if (least < MIN_BITS) {
            return Optional.of("Session ids share all but about " + (int) least + " bits (a common prefix or a "
                    + "counter); at least 128 must vary.");
        }
        return Optional.empty();
    }

    /** Bits a string of this length and alphabet can hold: 4 a hex digit (dashes not counted), 6 a base64 one. */
    static double bits(String s) {
        boolean digits = true;
        boolean hex = true;
        int counted = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '-' || c == '=') {
                continue;
            }
            counted++;
            digits &= c >= '0' && c <= '9';
            hex &= c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
        }
        double perChar = digits ? Math.log(10) / Math.log(2) : hex ? 4 : 6;
        return counted * perChar;
    }

    private static int commonPrefix(List<String> ids) {
        String first = ids.get(0);
        int n = first.length();
        for (String id : ids) {
            int k = 0;
            while (k < n && k < id.length() && id.charAt(k) == first.charAt(k)) {
                k++;
            }
            n = k;
        }
        return n;
    }

    private static int commonSuffix(List<String> ids, int prefix) {
        String first = ids.get(0);
        int n = first.length() - prefix;
        for (String id : ids) {
            int k = 0;
            while (k < n && k < id.length() - prefix
                    && id.charAt(id.length() - 1 - k) == first.charAt(first.length() - 1 - k)) {
                k++;
            }
            n = k;
        }
        return n;
    }
}
