package dev.warden.core.sanitize.database;

import dev.warden.core.sanitize.scan.Text;
import java.util.Locale;

/**
 * Raw SQL statements in text: a SQL verb at a word boundary with the clause that verb needs
 * nearby, up to its terminator. Prose that uses the same words lacks SQL's shape and is left.
 */
final class SqlStatements {

    private SqlStatements() {
    }

    /** The verbs a statement starts with; {@code Words} classifies every word against them once. */
    static final String[] VERBS = {"select", "insert", "update", "delete", "create", "drop", "alter",
            "truncate", "merge", "with", "grant", "upsert"};

    /**
     * A statement starts with a SQL verb at a word boundary and must have the clause that verb
     * needs nearby ({@code SELECT … FROM}, {@code INSERT INTO}, {@code UPDATE x SET},
     * {@code DELETE FROM}, {@code CREATE TABLE}); it ends at {@code ;}, a closing quote or the end
     * of the line. Prose such as "select one option from the list" lacks SQL's shape and is left.
     */
    static int statementEnd(String text, int start, int verbEnd, int[] noFromUntil) {
        // A bounded window keeps the scan linear however many verbs a hostile text repeats.
        int limit = Text.lineEnd(text, start, start + 600);
        boolean upper = Text.isUpper(text.charAt(start)) && Text.isUpper(text.charAt(verbEnd - 1));
        String verb = text.substring(start, verbEnd).toLowerCase(Locale.ROOT);
        boolean dml = verb.equals("select") || verb.equals("insert") || verb.equals("update") || verb.equals("delete");
        if (!upper && !dml) {
            return -1;
        }
        if (verb.equals("select")) {
            // FROM first, with the cache: a text of SELECTs without FROM costs a few characters each.
            int mode = upper ? 1 : 0;
            int searchFrom = Math.max(verbEnd, noFromUntil[mode]);
            if (searchFrom >= limit || keywordAt(text, searchFrom, limit, "from", upper) < 0) {
                noFromUntil[mode] = Math.max(noFromUntil[mode], limit - 4);
                return -1;
            }
        }
        int end = terminator(text, verbEnd, limit);
        boolean shaped = switch (verb) {
            case "select" -> selectShape(text, verbEnd, end, upper, noFromUntil);
            case "insert", "upsert" -> keyword(text, verbEnd, Math.min(end, verbEnd + 8), "into", upper)
                    && (keyword(text, verbEnd, end, "values", upper) || keyword(text, verbEnd, end, "select", upper)
                    || Text.indexOf(text, '(', verbEnd, end) > 0);
            case "update" -> keyword(text, verbEnd, end, "set", upper) && hasOperator(text, verbEnd, end);
            case "delete" -> keyword(text, verbEnd, Math.min(end, verbEnd + 8), "from", upper)
                    && (upper || keyword(text, verbEnd, end, "where", upper));
            case "create", "drop", "alter", "truncate" -> firstWordIs(text, verbEnd, end, upper, "table", "index",
                    "unique", "view", "schema", "database", "sequence", "trigger", "function", "procedure",
                    "materialized", "temporary", "temp", "extension", "type", "role", "user");
            case "merge" -> keyword(text, verbEnd, end, "into", upper) && keyword(text, verbEnd, end, "using", upper);
            case "with" -> upper && keyword(text, verbEnd, end, "as", true) && keyword(text, verbEnd, end, "select", true);
            case "grant" -> upper && keyword(text, verbEnd, end, "on", true) && keyword(text, verbEnd, end, "to", true);
            default -> false;
        };
        return shaped ? end : -1;
    }

    private static int terminator(String text, int from, int limit) {
        int depth = 0;
        for (int i = from; i < limit; i++) {
            char c = text.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                if (depth == 0) {
                    return i;
                }
                depth--;
            } else if (c == ';') {
                return i + 1;
            } else if (c == '"') {
                return i;
            }
        }
        return limit;
    }

    /**
     * {@code SELECT a, b FROM t}, {@code SELECT * FROM t}, {@code select x from t where …}.
     * {@code noFromUntil} is where the last search for FROM ended without finding one, per case
     * mode: a text of many SELECTs and no FROM would otherwise search the same window again for
     * every SELECT.
     */
    private static boolean selectShape(String text, int verbEnd, int end, boolean upper, int[] noFromUntil) {
        int mode = upper ? 1 : 0;
        int searchFrom = Math.max(verbEnd, noFromUntil[mode]);
        int from = searchFrom >= end ? -1 : keywordAt(text, searchFrom, end, "from", upper);
        if (from < 0) {
            noFromUntil[mode] = Math.max(noFromUntil[mode], end - 4);
            return false;
        }
        if (from < 0) {
            return false;
        }
        // Between SELECT and FROM: identifiers, '*', commas, dots, quotes, functions; not a sentence.
        int words = 0;
        boolean punctuation = false;
        int i = verbEnd;
        while (i < from) {
            char c = text.charAt(i);
            if (Text.isWordChar(c)) {
                int w = i;
                while (i < from && (Text.isWordChar(text.charAt(i)) || text.charAt(i) == '.')) {
                    i++;
                }
                words++;
                if (i - w > 0 && text.charAt(w) == 'a' && i - w == 2 && text.charAt(w + 1) == 's') {
                    punctuation = true;
                }
                continue;
            }
            if (c == '*' || c == ',' || c == '(' || c == '"' || c == '.') {
                punctuation = true;
            }
            i++;
        }
        if (words == 0 && !punctuation) {
            return false;
        }
        int afterFrom = from + 4;
        boolean hasTable = afterFrom < end && Text.isSpace(text.charAt(afterFrom));
        if (!hasTable) {
            return false;
        }
        if (upper) {
            return punctuation || words <= 3;
        }
        return punctuation && (keyword(text, afterFrom, end, "where", false) || words == 0
                || Text.indexOf(text, '$', afterFrom, end) >= 0 || Text.indexOf(text, '?', afterFrom, end) >= 0
                || keyword(text, afterFrom, end, "join", false) || keyword(text, afterFrom, end, "limit", false));
    }

    private static boolean hasOperator(String text, int s, int e) {
        return Text.indexOf(text, '=', s, e) >= 0;
    }

    private static boolean firstWordIs(String text, int s, int e, boolean upper, String... words) {
        int i = s;
        while (i < e && text.charAt(i) == ' ') {
            i++;
        }
        int w = i;
        while (i < e && Text.isWordChar(text.charAt(i))) {
            i++;
        }
        if (i == w) {
            return false;
        }
        for (String word : words) {
            if (i - w == word.length() && (upper ? text.startsWith(word.toUpperCase(Locale.ROOT), w)
                    : Text.matchesIgnoreCase(text, w, word))) {
                // and something after it: "DROP TABLE users", not "drop table" alone
                return i < e - 1;
            }
        }
        return false;
    }

    private static boolean keyword(String text, int s, int e, String lowerWord, boolean upper) {
        return keywordAt(text, s, e, lowerWord, upper) >= 0;
    }

    /** A whole word, in upper case when the statement is upper case, else in any case. */
    private static int keywordAt(String text, int s, int e, String lowerWord, boolean upper) {
        int n = lowerWord.length();
        for (int i = s; i + n <= e; i++) {
            if ((i == 0 || !Text.isWordChar(text.charAt(i - 1))) && (i + n >= text.length()
                    || !Text.isWordChar(text.charAt(i + n)))) {
                boolean match = upper ? matchesUpper(text, i, lowerWord) : Text.matchesIgnoreCase(text, i, lowerWord);
                if (match) {
                    return i;
                }
            }
        }
        return -1;
    }

    private static boolean matchesUpper(String text, int at, String lowerWord) {
        for (int k = 0; k < lowerWord.length(); k++) {
            if (text.charAt(at + k) != (char) (lowerWord.charAt(k) - 32)) {
                return false;
            }
        }
        return true;
    }

}
