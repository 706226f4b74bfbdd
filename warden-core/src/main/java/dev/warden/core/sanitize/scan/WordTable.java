package dev.warden.core.sanitize.scan;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A fixed set of words, each with a bit mask, looked up by the case-insensitive hash that
 * {@link Words} computes: a miss (nearly every word of ordinary text) costs one array load.
 */
public final class WordTable {

    /**
     * Several scanners' word classes in one table, so each word is looked up once; their bits must
     * not overlap (a scanner masks the bits it owns).
     */
    @SafeVarargs
    public static WordTable merged(Map<String, Integer>... tables) {
        Map<String, Integer> all = new HashMap<>();
        for (Map<String, Integer> table : tables) {
            table.forEach((word, bits) -> all.merge(word.toLowerCase(Locale.ROOT), bits, (x, y) -> x | y));
        }
        return new WordTable(all);
    }

    private final String[] words;
    private final int[] masks;
    private final int maxLength;

    WordTable(Map<String, Integer> entries) {
        int size = Integer.highestOneBit(Math.max(16, entries.size() * 4)) * 2;
        this.words = new String[size];
        this.masks = new int[size];
        int longest = 0;
        for (Map.Entry<String, Integer> entry : entries.entrySet()) {
            String word = entry.getKey().toLowerCase(Locale.ROOT);
            int slot = Words.hash(word, 0, word.length()) & (size - 1);
            while (words[slot] != null && !words[slot].equals(word)) {
                slot = (slot + 1) & (size - 1);
            }
            words[slot] = word;
            masks[slot] |= entry.getValue();
            longest = Math.max(longest, word.length());
        }
        this.maxLength = longest;
    }

    /** The mask of the word {@code text[s, e)} whose hash is {@code hash}, or 0. */
    int mask(String text, int s, int e, int hash) {
        int len = e - s;
        if (len > maxLength) {
            return 0;
        }
        int slot = hash & (words.length - 1);
        String word;
        while ((word = words[slot]) != null) {
            if (word.length() == len && Text.matchesIgnoreCase(text, s, word)) {
                return masks[slot];
            }
            slot = (slot + 1) & (words.length - 1);
        }
        return 0;
    }
}
