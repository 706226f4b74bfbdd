package dev.warden.core.sanitize.scan;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The words of a text, found in one pass and shared by the detectors that work word by word
 * (database errors, SQL, secrets, prompt injection), so the text is walked character by character
 * once instead of once per detector. A word starts at an ASCII letter or digit and runs over
 * letters, digits and {@code _}; each carries a case-insensitive hash for table lookups. The same
 * pass notes where the {@code :} and {@code =} are (key separators, URL schemes) and whether the
 * text may hold characters that {@code Sanitizer.clean} changes.
 */
public final class Words {

    /** The character before the word is '-' or '_' (it may continue a token such as {@code api-key}). */
    public static final int JOINED_BEFORE = 1;
    /** The character after the word is '-'. */
    public static final int JOINED_AFTER = 2;

    private static final byte OTHER = 0;
    private static final byte ALNUM = 1;
    private static final byte UNDERSCORE = 2;
    private static final byte DASH = 3;
    private static final byte COLON = 4;
    private static final byte EQUALS = 5;
    private static final byte CONTROL = 6;
    private static final byte QUESTION = 7;

    /** The class of each ISO-8859-1 byte: one load per character in the loop below. */
    private static final byte[] CLASS = new byte[256];

    static {
        for (int c = 0; c < 256; c++) {
            boolean control = (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7F && c < 0xA0);
            CLASS[c] = Text.isAlnum((char) c) ? ALNUM : c == '_' ? UNDERSCORE : c == '-' ? DASH
                    : c == ':' ? COLON : c == '=' ? EQUALS : c == '?' ? QUESTION : control ? CONTROL : OTHER;
        }
    }

    private final String text;
    private final WordTable classes;
    private int count;
    private int[] starts;
    private int[] ends;
    private byte[] flags;
    private final Classified classified = new Classified();
    private final Positions colons = new Positions();
    private final Positions equalsSigns = new Positions();
    private boolean maybeUnclean;

    private Words(String text, WordTable classes) {
        this.text = text;
        this.classes = classes;
        int capacity = Math.max(16, text.length() / 6);
        this.starts = new int[capacity];
        this.ends = new int[capacity];
        this.flags = new byte[capacity];
    }

    /** The words of {@code text}, each classified against {@code classes} (every word scanner's words, merged). */
    public static Words of(String text, WordTable classes) {
        Words words = new Words(text, classes);
        words.index();
        return words;
    }

    /**
     * Runs over the text's ISO-8859-1 bytes: for a Latin-1 string (nearly all error text) that is a
     * plain copy, much faster to walk than {@code charAt}. Characters beyond Latin-1 become '?',
     * which like every non-ASCII character is in no word, so the words are the same; a '?' that was
     * not one marks the text as possibly unclean, and {@code Sanitizer.clean} decides.
     */
    private void index() {
        byte[] b = latin1(text);
        int n = b.length;
        int i = 0;
        while (i < n) {
            int k = CLASS[b[i] & 0xFF];
            if (k != ALNUM) {
                if (k >= COLON) {
                    punctuation(k, i);
                }
                i++;
                continue;
            }
            int start = i;
            int joined = start > 0 && (b[start - 1] == '-' || b[start - 1] == '_') ? JOINED_BEFORE : 0;
            i++;
            while (i < n && ((k = CLASS[b[i] & 0xFF]) == ALNUM || k == UNDERSCORE)) {
                i++;
            }
            if (i < n && b[i] == '-') {
                joined |= JOINED_AFTER;
            }
            int mask = classes.mask(text, start, i, hash(text, start, i));
            if (mask != 0) {
                classified.add(count, mask);
            }
            add(start, i, joined);
        }
    }

    /** One byte per char; what is not Latin-1 becomes '?'. */
    private static byte[] latin1(String text) {
        byte[] b = text.getBytes(StandardCharsets.ISO_8859_1);
        if (b.length == text.length()) {
            return b;
        }
        // The encoder wrote one '?' for a surrogate pair: map char by char so positions line up.
        b = new byte[text.length()];
        for (int i = 0; i < b.length; i++) {
            char c = text.charAt(i);
            b[i] = c < 256 ? (byte) c : (byte) '?';
        }
        return b;
    }

    private void punctuation(int k, int at) {
        switch (k) {
            case COLON -> colons.add(at);
            case EQUALS -> equalsSigns.add(at);
            case CONTROL -> maybeUnclean = true;
            default -> maybeUnclean |= text.charAt(at) != '?'; // QUESTION: a real '?', or a non-Latin-1 character
        }
    }

    private void add(int start, int end, int joined) {
        if (count == starts.length) {
            int capacity = count * 2;
            starts = Arrays.copyOf(starts, capacity);
            ends = Arrays.copyOf(ends, capacity);
            flags = Arrays.copyOf(flags, capacity);
        }
        starts[count] = start;
        ends[count] = end;
        flags[count] = (byte) joined;
        count++;
    }

    public String text() {
        return text;
    }

    public int count() {
        return count;
    }

    public int start(int word) {
        return starts[word];
    }

    public int end(int word) {
        return ends[word];
    }

    /** The words that some detector's table classifies, in order, with their class bits. */
    public Classified classified() {
        return classified;
    }

    /** {@link #JOINED_BEFORE} and {@link #JOINED_AFTER} bits. */
    public int flags(int word) {
        return flags[word];
    }

    /** Where the colons are, in order. */
    public Positions colons() {
        return colons;
    }

    /** Where the {@code =} are, in order. */
    public Positions equalsSigns() {
        return equalsSigns;
    }

    /** False when {@code Sanitizer.clean} would return the text unchanged: no control, C1 or non-Latin-1 character. */
    public boolean maybeUnclean() {
        return maybeUnclean;
    }

    /** The first word that starts at or after {@code at}, from {@code word} on (a forward skip). */
    public int firstAtOrAfter(int word, int at) {
        int w = word;
        while (w < count && starts[w] < at) {
            w++;
        }
        return w;
    }

    /**
     * A case-insensitive hash of the word's length, first two and last characters: computed once
     * per word rather than per character, and enough to spread a small table's words apart (the
     * lookup compares the whole word anyway).
     */
    static int hash(String text, int s, int e) {
        int len = e - s;
        int h = len * 0x9E3779B1;
        h = (h ^ Text.lower(text.charAt(s))) * 0x01000193;
        h = (h ^ (len > 1 ? Text.lower(text.charAt(s + 1)) : 0)) * 0x01000193;
        h = (h ^ Text.lower(text.charAt(e - 1))) * 0x01000193;
        return h ^ (h >>> 16);
    }

    /** Word ordinals with their class bits, in text order. */
    public static final class Classified {
        private int[] words = new int[64];
        private int[] masks = new int[64];
        private int size;

        void add(int word, int mask) {
            if (size == words.length) {
                words = Arrays.copyOf(words, size * 2);
                masks = Arrays.copyOf(masks, size * 2);
            }
            words[size] = word;
            masks[size] = mask;
            size++;
        }

        public int size() {
            return size;
        }

        public int word(int index) {
            return words[index];
        }

        public int mask(int index) {
            return masks[index];
        }
    }

    /** A growable list of positions in increasing order. */
    public static final class Positions {
        private int[] at = new int[16];
        private int size;

        void add(int position) {
            if (size == at.length) {
                at = Arrays.copyOf(at, size * 2);
            }
            at[size++] = position;
        }

        public int size() {
            return size;
        }

        public int get(int index) {
            return at[index];
        }

        /** The position at {@code index}, or {@link Integer#MAX_VALUE} past the end. */
        public int getOrMax(int index) {
            return index < size ? at[index] : Integer.MAX_VALUE;
        }
    }
}
