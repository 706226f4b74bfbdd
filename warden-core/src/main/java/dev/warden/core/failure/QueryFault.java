package dev.warden.core.failure;

import dev.warden.core.error.ErrorCode;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What a database error says about the query that caused it, when the query came from the
 * caller (a SQL tool such as server-postgres): a syntax error or a missing table is the caller's
 * to fix, so it gets the code and a fixed message saying so, never the names. Read from the
 * server's words with the caller's masked.
 */
public record QueryFault(ErrorCode code, String message) {

    public QueryFault {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
    }

    /** The fault {@code maskedText} (the database's words, the caller's masked) states, if one. */
    public static Optional<QueryFault> of(String maskedText) {
        String t = (maskedText.length() > Classifier.READ_CHARS ? maskedText.substring(0, Classifier.READ_CHARS)
                : maskedText).toLowerCase(Locale.ROOT);
        if (t.contains("syntax error")) {
            return Optional.of(new QueryFault(ErrorCode.VALIDATION_ERROR, "The query is not valid SQL."));
        }
        if (t.contains("does not exist") || t.contains("doesn't exist") || t.contains("no such table")
                || t.contains("no such column") || t.contains("unknown column")) {
            return Optional.of(new QueryFault(ErrorCode.NOT_FOUND,
                    "The query names a table, column or function that does not exist."));
        }
        if (t.contains("permission denied") || t.contains("read-only transaction") || t.contains("access denied")) {
            return Optional.of(new QueryFault(ErrorCode.PERMISSION_DENIED, "The query is not allowed."));
        }
        return Optional.empty();
    }
}
