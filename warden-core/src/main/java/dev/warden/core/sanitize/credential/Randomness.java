package dev.warden.core.sanitize.credential;

import dev.warden.core.sanitize.scan.CharClass;
import dev.warden.core.sanitize.scan.Text;

/**
 * Tells a generated secret from a placeholder written in its shape: documentation and sample
 * configs show {@code ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx}, {@code sk_test_0000…},
 * {@code glpat-XXXXXXXXXXX-XXXXXXXX}, {@code AKIAIOSFODNN7EXAMPLE}, {@code …abcdefghij…}. The
 * thresholds are set so that a body drawn at random from its alphabet fails them with a
 * probability of about one in a million or less (worked out at each check), while people's
 * fillers fail them.
 */
final class Randomness {

    private Randomness() {
    }

    /** True when {@code text[start, end)}, drawn from {@code alphabet}, could have been generated at random. */
    static boolean plausible(String text, int start, int end, CharClass alphabet) {
        return enoughDistinct(text, start, end, alphabet) && !longStepRun(text, start, end, alphabet)
                && !saysExample(text, start, end);
    }

    /**
     * At least 40% of the symbols one could expect to see. For 36 base62 characters: 15 of an
     * expected 27 (σ ≈ 2.3); for 64 hex digits: 7 of 16; for 20 of 64 symbols: 8 of 17.
     */
    private static boolean enoughDistinct(String text, int start, int end, CharClass alphabet) {
        long seenLow = 0;
        long seenHigh = 0;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c < 64) {
                seenLow |= 1L << c;
            } else if (c < 128) {
                seenHigh |= 1L << (c - 64);
            }
        }
        int distinct = Long.bitCount(seenLow) + Long.bitCount(seenHigh);
        int needed = (int) Math.ceil(Math.min(end - start, alphabet.size()) * 0.4);
        return distinct >= needed;
    }

    /**
     * A run in which each character repeats the previous one or is its neighbour in code order
     * ({@code xxxxxxx}, {@code 0000000}, {@code abcdefg}, {@code 9876543}). At random a step has
     * probability at most 3/size, so a run of {@code limit} steps somewhere in a body of n ≤ 64
     * characters has probability below n·(3/size)^limit: 64·(3/62)^6 ≈ 8e-7 for base62,
     * 16·(3/36)^7 ≈ 5e-7 for an AWS key id, 64·(3/16)^11 ≈ 7e-7 for hex.
     * Longer bodies (macaroons, project keys) are base64 of structured bytes, where runs of
     * {@code A} are normal: only their distinct count is tested.
     */
    private static boolean longStepRun(String text, int start, int end, CharClass alphabet) {
        if (end - start > 64) {
            return false;
        }
        int limit = alphabet.size() <= 16 ? 11 : alphabet.size() <= 36 ? 7 : 6;
        int run = 0;
        for (int i = start + 1; i < end; i++) {
            int step = text.charAt(i) - text.charAt(i - 1);
            if (step >= -1 && step <= 1) {
                if (++run >= limit) {
                    return true;
                }
            } else {
                run = 0;
            }
        }
        return false;
    }

    /** AWS, Google and others mark their sample keys with "EXAMPLE"; at random it is a 1e-11 event. */
    private static boolean saysExample(String text, int start, int end) {
        for (int i = start; i + 7 <= end; i++) {
            char c = text.charAt(i);
            if ((c == 'e' || c == 'E') && Text.matchesIgnoreCase(text, i, "example")) {
                return true;
            }
        }
        return false;
    }

    /** Letters of both cases, at least four of each: a body of one case is an identifier, not a token. */
    static boolean bothCases(String text, int start, int end) {
        int upper = 0;
        int lower = 0;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (Text.isUpper(c)) {
                upper++;
            } else if (Text.isLower(c)) {
                lower++;
            }
        }
        return upper >= 4 && lower >= 4;
    }
}
