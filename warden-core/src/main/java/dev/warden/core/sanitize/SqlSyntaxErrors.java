package dev.warden.core.sanitize;

import dev.warden.core.sanitize.database.DatabaseErrorDetector;
import java.util.List;
import java.util.Locale;

/**
 * The phrases a database writes when a statement's syntax broke ({@code syntax error at or near},
 * SQLite's {@code unrecognized token:}), each with the database that writes it: read from the
 * sanitizer's own table of database markers, so one table holds what a database error looks like.
 * The audit's SQL canaries match these in lower case.
 */
public final class SqlSyntaxErrors {

    /** One phrase: the database that writes it, and the phrase as it writes it. */
    public record Phrase(String database, String text) {
        /** {@code SQLite: unrecognized token}: the phrase without its quoting, for a report. */
        public String name() {
            int s = 0;
            int e = text.length();
            while (s < e && "\": ".indexOf(text.charAt(s)) >= 0) {
                s++;
            }
            while (e > s && "\": ".indexOf(text.charAt(e - 1)) >= 0) {
                e--;
            }
            return database + ": " + text.substring(s, e);
        }

        /** The phrase in lower case, to find in a lower-cased text. */
        public String lower() {
            return text.toLowerCase(Locale.ROOT);
        }
    }

    private static final List<Phrase> ALL = collect();

    private SqlSyntaxErrors() {
    }

    /** Every syntax-error phrase, in the table's order. */
    public static List<Phrase> all() {
        return ALL;
    }

    private static List<Phrase> collect() {
        return DatabaseErrorDetector.syntaxPhrases().stream().map(e -> new Phrase(e.getKey(), e.getValue())).toList();
    }
}
