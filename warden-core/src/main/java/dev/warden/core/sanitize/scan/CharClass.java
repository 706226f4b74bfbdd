package dev.warden.core.sanitize.scan;

/** The alphabets credential bodies are drawn from, with their sizes for {@code Randomness}. */
public enum CharClass {
    BASE62(62),
    /** {@code [0-9A-Za-z_-]}: RFC 4648's URL-safe alphabet, which most newer token formats use. */
    BASE64URL(64),
    HEX_LOWER(16),
    /** Hex of either case: the symbols are 16 whichever case a provider prints. */
    HEX(16),
    UPPER_ALNUM(36),
    LOWER_ALNUM(36),
    LETTERS(52),
    LOWER(26),
    DIGITS(10),
    /** Bech32's data characters, upper case (BIP 173). */
    BECH32_UPPER(32);

    private static final String BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L";

    private final int size;

    CharClass(int size) {
        this.size = size;
    }

    public int size() {
        return size;
    }

    boolean has(char c) {
        return switch (this) {
            case BASE62 -> Text.isAlnum(c);
            case BASE64URL -> Text.isAlnum(c) || c == '_' || c == '-';
            case HEX_LOWER -> Text.isDigit(c) || (c >= 'a' && c <= 'f');
            case HEX -> Text.isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            case UPPER_ALNUM -> Text.isUpper(c) || Text.isDigit(c);
            case LOWER_ALNUM -> Text.isLower(c) || Text.isDigit(c);
            case LETTERS -> Text.isUpper(c) || Text.isLower(c);
            case LOWER -> Text.isLower(c);
            case DIGITS -> Text.isDigit(c);
            case BECH32_UPPER -> c < 128 && BECH32.indexOf(c) >= 0;
        };
    }

    /** The end of the run of this class starting at {@code from}, at most {@code max} long. */
    public int runEnd(String text, int from, int max) {
        int limit = (int) Math.min(text.length(), (long) from + max);
        int i = from;
        while (i < limit && has(text.charAt(i))) {
            i++;
        }
        return i;
    }
}
