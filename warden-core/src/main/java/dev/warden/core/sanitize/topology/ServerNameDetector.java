package dev.warden.core.sanitize.topology;

import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Detector;
import dev.warden.core.sanitize.detection.Finding;
import dev.warden.core.sanitize.scan.Text;
import java.util.List;

/**
 * Names of one installation written into a failure's prose ({@code cnry_ledger_7f3a},
 * {@code tenant_4821}, {@code orders_2024_q3}): {@code snake_case} with a segment holding a digit.
 * What the caller sent or the tool published is kept ({@code CallerInput}); names of words alone
 * ({@code work_mem}, {@code do_not_honor}), all-capitals codes, one-token texts, parts of e-mail
 * addresses or paths and a format hint's example ({@link FormatHints}) are public and left alone.
 * Linear: the scan jumps from underscore to underscore and never goes back.
 */
public final class ServerNameDetector implements Detector {

    static final String KIND = "name";

    @Override
    public Category category() {
        return Category.DATABASE;
    }

    @Override
    public void scan(String text, List<Finding> out) {
        int underscore = text.indexOf('_');
        if (underscore < 0 || !isProse(text)) {
            return;
        }
        int n = text.length();
        while (underscore >= 0) {
            int start = underscore;
            while (start > 0 && isWordChar(text.charAt(start - 1))) {
                start--;
            }
            int end = underscore;
            while (end < n && isWordChar(text.charAt(end))) {
                end++;
            }
            if (isName(text, start, end) && standsAlone(text, start, end) && !FormatHints.example(text, start)) {
                out.add(new Finding(Category.DATABASE, KIND, start, end));
            }
            underscore = end < n ? text.indexOf('_', end) : -1;
        }
    }

    /** More than one word: a single token (a code, a key, an enum value) is not prose. */
    private static boolean isProse(String text) {
        boolean word = false;
        boolean gap = false;
        for (int i = 0; i < text.length(); i++) {
            boolean space = Character.isWhitespace(text.charAt(i));
            if (!space && gap) {
                return true;
            }
            word |= !space;
            gap |= space && word;
        }
        return false;
    }

    private static boolean isName(String text, int start, int end) {
        if (end - start < 3 || !(Text.isUpper(text.charAt(start)) || Text.isLower(text.charAt(start))) || text.charAt(end - 1) == '_') {
            return false;
        }
        boolean lower = false;
        boolean inner = false;
        boolean numbered = false;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            lower |= Text.isLower(c);
            inner |= c == '_' && i > start;
            numbered |= Text.isDigit(c);
        }
        return lower && inner && numbered;
    }

    /** Not the local part or domain of an e-mail address, not a segment of a path or URL. */
    private static boolean standsAlone(String text, int start, int end) {
        char before = start > 0 ? text.charAt(start - 1) : ' ';
        char after = end < text.length() ? text.charAt(end) : ' ';
        return before != '@' && after != '@' && before != '/' && before != '\\' && after != '/' && after != '\\';
    }

    private static boolean isWordChar(char c) {
        return Text.isWordChar(c);
    }
}
