package dev.warden.core.sanitize.pii;

import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Detector;
import dev.warden.core.sanitize.detection.Finding;
import java.util.List;

/**
 * Personal data: email addresses, payment card numbers (13 to 19 digits that pass the Luhn
 * check, spaces or dashes between groups allowed; not an ungrouped run of 17 or more digits that
 * ends a name such as {@code tmp-…}),
 * US social security numbers ({@code 123-45-6789}) and international phone numbers ({@code +} and
 * 8 to 15 digits). A hand-written scan, linear in the
 * text: every expansion around an {@code @} or through a run of digits is bounded. Not in the
 * default set; {@link Sanitizer.Builder#pii()} adds it.
 */
public final class PiiDetector implements Detector {

    private static final int MAX_LOCAL = 64;
    private static final int MAX_DOMAIN = 253;

    @Override
    public Category category() {
        return Category.PII;
    }

    @Override
    public void scan(String text, List<Finding> out) {
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '@') {
                int end = email(text, i, out);
                i = Math.max(i + 1, end);
            } else if (isDigit(c) || c == '+' && i + 1 < n && isDigit(text.charAt(i + 1))) {
                i = digits(text, i, out);
            } else {
                i++;
            }
        }
    }

    /** An address around the {@code @} at {@code at}; returns where scanning goes on. */
    private static int email(String text, int at, List<Finding> out) {
        int start = at;
        while (start > 0 && at - start < MAX_LOCAL && isLocal(text.charAt(start - 1))) {
            start--;
        }
        int end = at + 1;
        while (end < text.length() && end - at <= MAX_DOMAIN && isDomain(text.charAt(end))) {
            end++;
        }
        while (end > at + 1 && (text.charAt(end - 1) == '.' || text.charAt(end - 1) == '-')) {
            end--; // a sentence's full stop is not part of the domain
        }
        int lastDot = -1;
        for (int k = end - 1; k > at; k--) { // within the domain just scanned: bounded
            if (text.charAt(k) == '.') {
                lastDot = k;
                break;
            }
        }
        boolean tld = lastDot > at + 1 && end - lastDot - 1 >= 2;
        for (int k = lastDot + 1; tld && k < end; k++) {
            tld = Character.isLetter(text.charAt(k));
        }
        if (start < at && tld) {
            out.add(new Finding(Category.PII, "email", start, end));
            return end;
        }
        return at + 1;
    }

    /**
     * A run of digits with single separators between them (space, dash, dot, parentheses after a
     * {@code +}): a phone number after {@code +}, an SSN in its 3-2-4 form, or a card number.
     */
    private static int digits(String text, int from, List<Finding> out) {
        int n = text.length();
        boolean plus = text.charAt(from) == '+';
        int i = plus ? from + 1 : from;
        int count = 0;
        int end = i;
        long[] luhn = new long[20];
        int separators = 0;
        while (i < n && count <= 19) {
            char c = text.charAt(i);
            if (isDigit(c)) {
                luhn[count < 20 ? count : 19] = c - '0';
                count++;
                i++;
                end = i;
                separators = 0;
            } else if ((c == ' ' || c == '-' || plus && (c == '.' || c == '(' || c == ')')) && separators < 2) {
                separators++; // at most two in a row ("(415) 555"); the run ends at its last digit
                i++;
            } else {
                break;
            }
        }
        // A run that goes on past 19 digits (a hash, an id) or touches letters is not one of these.
        boolean bounded = (end >= n || !Character.isLetterOrDigit(text.charAt(end)))
                && (from == 0 || !Character.isLetterOrDigit(text.charAt(from - 1)) && text.charAt(from - 1) != '.');
        if (bounded && count <= 19) {
            if (plus && count >= 8 && count <= 15) {
                out.add(new Finding(Category.PII, "phone", from, end));
            } else if (!plus && count == 9 && isSsn(text, from, end)) {
                out.add(new Finding(Category.PII, "ssn", from, end));
            } else if (!plus && count >= 13 && "23456".indexOf((char) ('0' + luhn[0])) >= 0 && luhn(luhn, count)
                    && !(count >= 17 && end - from == count && joinedToWord(text, from))) {
                // card numbers start with 2 to 6 (issuer prefixes); a millisecond timestamp (17…) does not
                out.add(new Finding(Category.PII, "card-number", from, end));
            }
        }
        // Skip the whole run, however long, so its digits are not scanned again.
        while (end < n && (isDigit(text.charAt(end)))) {
            end++;
        }
        return Math.max(end, from + 1);
    }

    /**
     * Whether the run is the tail of a name, joined to a word by a dash or an underscore: a temporary
     * folder ({@code warden-twin-java-6507958311186346947}, a random long that passes Luhn one time in
     * ten). Only an ungrouped run of 17 digits or more is let go so: a random long has 17 to 20 digits
     * all but once in a few thousand, while a card glued to a label ({@code cc-4111…}, {@code
     * diners_3056…}) mostly has 13 to 16; a 17-to-19-digit card glued to a label is the price.
     */
    private static boolean joinedToWord(String text, int from) {
        return from >= 2 && (text.charAt(from - 1) == '-' || text.charAt(from - 1) == '_')
                && Character.isLetterOrDigit(text.charAt(from - 2));
    }

    private static boolean isSsn(String text, int from, int end) {
        return end - from == 11 && text.charAt(from + 3) == '-' && text.charAt(from + 6) == '-';
    }

    private static boolean luhn(long[] digits, int count) {
        int sum = 0;
        for (int k = 0; k < count; k++) {
            int d = (int) digits[count - 1 - k];
            if (k % 2 == 1) {
                d *= 2;
                if (d > 9) {
                    d -= 9;
                }
            }
            sum += d;
        }
        return sum % 10 == 0;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isLocal(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || ".!#$%&'*+/=?^_`{|}~-".indexOf(c) >= 0;
    }

    private static boolean isDomain(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '.' || c == '-';
    }
}
