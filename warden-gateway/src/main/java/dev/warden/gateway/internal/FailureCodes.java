package dev.warden.gateway.internal;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.json.Json;
import java.util.Locale;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The code an upstream's failure gets: the one it declared (a Warden error object), else the one
 * its words say (a missing file, SQL that does not parse), else the fallback. The caller's own
 * words are masked before anything here reads the text.
 */
final class FailureCodes {

    /** Text beyond this is not read for a code (the sanitizer has its own bound). */
    static final int CLASSIFY_CHARS = 16 * 1024;

    private FailureCodes() {
    }

    /**
     * A code read from the words of the text; an upstream failure when nothing says otherwise. The
     * caller's mistakes (a missing file, a directory where a file was meant, SQL that does not
     * parse, a division by zero, an invalid URL) get the code that says so, never a retryable one.
     */
    static ErrorCode classify(String text, ErrorCode fallback) {
        String t = text.length() > CLASSIFY_CHARS ? text.substring(0, CLASSIFY_CHARS) : text;
        t = t.toLowerCase(Locale.ROOT);
        Optional<ErrorCode> http = HttpStatus.in(t).flatMap(HttpStatus::code);
        if (http.isPresent()) {
            // A tool that fetched what the caller named says how that went: a 404 is the caller's.
            return http.get();
        }
        if (any(t, "permission denied", "forbidden", "unauthorized", "not allowed", "access denied", "eacces",
                "read-only transaction", "eperm", "not authorized", "outside allowed", "operation not permitted",
                "blocked request", "blocked url", "disallowed")) {
            return ErrorCode.PERMISSION_DENIED;
        }
        if (any(t, "not found", "no such", "does not exist", "doesn't exist", "enoent", "unknown ",
                "could not find", "cannot find", "can't find", "no match")) {
            return ErrorCode.NOT_FOUND;
        }
        if (any(t, "timed out", "timeout", "deadline exceeded", "etimedout")) {
            return ErrorCode.TIMEOUT;
        }
        if (any(t, "rate limit", "too many requests", "quota exceeded")) {
            return ErrorCode.RATE_LIMITED;
        }
        if (any(t, "already exists", "conflict", "duplicate", "eexist", "unique constraint")) {
            return ErrorCode.CONFLICT;
        }
        if (any(t, "invalid", "validation", "must be", "is required", "expected ", "eisdir", "enotdir",
                "is a directory", "not a directory", "illegal operation on a directory", "syntax error",
                "division by zero", "divide by zero", "incomplete input", "malformed", "cannot parse", "could not parse",
                "unable to parse", "out of range", "not a valid", "unsupported protocol", "bad request")) {
            return ErrorCode.VALIDATION_ERROR;
        }
        return fallback;
    }

    private static boolean any(String text, String... words) {
        for (String w : words) {
            if (text.contains(w)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The code of a failure: what the server's words say the caller should fix (a path that is a
     * directory, SQL that does not parse) wins over a generic suggestion of the server failing; a
     * database error's precise kind wins over words.
     */
    static ErrorCode codeOf(Optional<ErrorCode> suggested, String text, ErrorCode fallback) {
        ErrorCode words = classify(text, fallback);
        if (suggested.isEmpty()) {
            return words;
        }
        ErrorCode s = suggested.get();
        return s.systemFailure() && !words.systemFailure() ? words : s;
    }

    /** An upstream's internal error is, from here, the upstream failing. */
    static ErrorCode visible(ErrorCode code) {
        return code == ErrorCode.INTERNAL_ERROR ? ErrorCode.UPSTREAM_ERROR : code;
    }

    /** The code of a Warden error object ({@code {"error":{"code":"NOT_FOUND","message":…}}}), if the text is one. */
    static Optional<ErrorCode> declaredCode(String text) {
        String t = text.strip();
        if (!t.startsWith("{\"error\"") || t.length() > 64 * 1024) {
            return Optional.empty();
        }
        try {
            JsonNode error = Json.mapper().readTree(t).path("error");
            String code = error.path("code").asString("");
            if (!error.path("message").isString()) {
                return Optional.empty();
            }
            for (ErrorCode c : ErrorCode.values()) {
                if (c.name().equals(code)) {
                    return Optional.of(visible(c));
                }
            }
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    static final String DATABASE_PLACEHOLDER = "[redacted:database-error]";

    /**
     * What a database error says about the query that caused it, when the query came from the
     * client (a SQL tool such as server-postgres): a syntax error or a missing table is the
     * caller's to fix, so it gets the code and a fixed message saying so, never the names.
     */
    record QueryFault(ErrorCode code, String message) {
        static Optional<QueryFault> of(String text) {
            String t = (text.length() > CLASSIFY_CHARS ? text.substring(0, CLASSIFY_CHARS) : text).toLowerCase(Locale.ROOT);
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
}
