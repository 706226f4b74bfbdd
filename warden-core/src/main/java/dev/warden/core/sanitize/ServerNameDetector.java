package dev.warden.core.sanitize;

import java.util.List;

/**
 * Names of one installation, written into a failure's prose: the ledger in a trigger's "ledger
 * cnry_ledger_7f3a is closed", a tenant's schema {@code tenant_4821}, a table {@code orders_2024_q3},
 * a generated {@code tmp_9f2c1e}. Such a name is {@code snake_case} with a numbered or generated
 * part (a segment holding a digit): it is the server's own unless the caller sent it (its SQL named
 * the table) or the tool published it (its name, a property of its input schema), which {@link
 * CallerInput} keeps, as it keeps every caller-owned finding.
 *
 * <p>Vocabulary names made of words alone ({@code work_mem}, Stripe's {@code do_not_honor}, an
 * enum value) are public: documented settings and codes the model may need, left alone. So are
 * all-capitals codes ({@code ER_SIGNAL_EXCEPTION}), a text that is one token (a code or a key, not
 * prose), words that belong to an e-mail address or a path (the other detectors' concern) and the
 * example of a format hint ("must look like {@code ord_123}", {@link FormatHints}).
 * Linear: the scan jumps from underscore to underscore and never goes back past a word it read.
 */
final class ServerNameDetector implements Detector {

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
