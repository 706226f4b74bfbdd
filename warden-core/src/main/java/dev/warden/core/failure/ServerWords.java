package dev.warden.core.failure;

import dev.warden.core.error.ErrorCode;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The one word table: what a server's own words say about a failure, read in a fixed order (see
 * docs/reference/failure-codes.md). The text it reads has the caller's words masked already
 * ({@link CallerWords}); what is left is the server's. No regular expressions.
 */
final class ServerWords {

    private ServerWords() {
    }

    /**
     * The code the server's words give, if they give one. {@code masked} is the server's text with
     * the caller's words masked; {@code values} what the caller sent, for telling whose a host is.
     */
    static Optional<ErrorCode> read(String masked, Set<String> values) {
        String t = (masked.length() > Classifier.READ_CHARS ? masked.substring(0, Classifier.READ_CHARS) : masked).toLowerCase(Locale.ROOT);
        // 1. A framework's own marker of a caller's mistake: the framework checked the call.
        if (any(t, "usererror", "user error", "input error", "input validation failed", "invalid arguments for tool",
                "is not available in this session", "invalid input:")) {
            return Optional.of(ErrorCode.VALIDATION_ERROR);
        }
        // 2. An HTTP status the tool reports from the API it called.
        Optional<ErrorCode> http = HttpStatuses.in(t).flatMap(HttpStatuses::code);
        if (http.isPresent()) {
            return http;
        }
        // 3. The server's own dependency out of reach: a name that does not resolve, a refused or reset connection.
        Optional<ErrorCode> network = network(t, values);
        if (network.isPresent()) {
            return network;
        }
        if (any(t, "permission denied", "forbidden", "unauthorized", "not allowed", "access denied", "eacces",
                "read-only transaction", "eperm", "not authorized", "outside allowed", "operation not permitted",
                "blocked request", "blocked url", "disallowed", "you may not", "not permitted", "path traversal",
                "no permission")) {
            return Optional.of(ErrorCode.PERMISSION_DENIED);
        }
        if (any(t, "not found", "no such", "does not exist", "doesn't exist", "enoent", "unknown ",
                "could not find", "cannot find", "can't find", "no match", "not match any") || opensWithNo(t)) {
            return Optional.of(ErrorCode.NOT_FOUND);
        }
        if (any(t, "timed out", "timeout", "deadline exceeded", "etimedout")) {
            return Optional.of(ErrorCode.TIMEOUT);
        }
        if (any(t, "rate limit", "too many requests", "quota exceeded")) {
            return Optional.of(ErrorCode.RATE_LIMITED);
        }
        if (any(t, "already ", "conflict", "duplicate", "eexist", "unique constraint")) {
            return Optional.of(ErrorCode.CONFLICT);
        }
        if (any(t, "invalid", "validation", "must be", "is required", "expected ", "eisdir", "enotdir",
                "is a directory", "not a directory", "illegal operation on a directory", "syntax error",
                "division by zero", "divide by zero", "incomplete input", "malformed", "cannot parse", "could not parse",
                "unable to parse", "out of range", "not a valid", "unsupported protocol", "bad request")) {
            return Optional.of(ErrorCode.VALIDATION_ERROR);
        }
        // 4. The server's own code crashing, or its API failing in words.
        if (any(t, "cannot read properties of", "cannot read property", "nullpointerexception", "segmentation fault",
                "out of memory", "outofmemoryerror", "internal server error", "service unavailable", "bad gateway")) {
            return Optional.of(ErrorCode.UPSTREAM_ERROR);
        }
        return Optional.empty();
    }

    /** How a name lookup's failure names the host: the host follows these words. */
    private static final String[] UNRESOLVED = {"getaddrinfo enotfound ", "getaddrinfo eai_again ", "enotfound ",
        "eai_again ", "could not resolve host: ", "unknownhostexception: ", "failed to resolve ",
        "err_name_not_resolved at "};

    private static Optional<ErrorCode> network(String t, Set<String> values) {
        for (String words : UNRESOLVED) {
            int at = t.indexOf(words);
            if (at >= 0) {
                String host = hostAt(t, at + words.length());
                // A host the caller named that does not exist is the caller's to fix; the server's own is not.
                return Optional.of(callers(host, values) ? ErrorCode.NOT_FOUND : ErrorCode.UPSTREAM_ERROR);
            }
        }
        // A database refusing the server's own login: the caller never logs in to it.
        if (any(t, "access denied for user", "password authentication failed for user", "login failed for user")) {
            return Optional.of(ErrorCode.UPSTREAM_ERROR);
        }
        if (any(t, "getaddrinfo", "name or service not known", "nodename nor servname", "temporary failure in name",
                "err_name_not_resolved")) {
            return Optional.of(ErrorCode.UPSTREAM_ERROR);
        }
        if (any(t, "econnrefused", "connection refused", "econnreset", "connection reset", "socket hang up",
                "ehostunreach", "enetunreach", "network is unreachable", "epipe", "err_connection_refused",
                // Node's fetch throws "fetch failed" only when no HTTP answer came (its cause says why)
                "fetch failed",
                "err_connection_reset", "err_connection_closed", "err_address_unreachable",
                // the JDK's and Spring's words for the same: a refused, unreachable or unresolvable peer
                "java.net.connectexception", "noroutetohostexception", "unresolvedaddressexception",
                "i/o error on get request", "i/o error on post request", "i/o error on put request",
                "i/o error on patch request", "i/o error on delete request")) {
            return Optional.of(ErrorCode.UPSTREAM_ERROR);
        }
        return Optional.empty();
    }

    /**
     * "No session found for PID 1", "No booking bk-9.": a message that opens with "no" and a noun
     * says there is none of what the caller named (an "Error:" prefix aside).
     */
    private static boolean opensWithNo(String t) {
        String s = t.strip();
        while (s.startsWith("error:")) {
            s = s.substring(6).strip();
        }
        return s.startsWith("no ") && s.length() > 3 && Character.isLetter(s.charAt(3));
    }

    private static String hostAt(String t, int from) {
        int end = from;
        while (end < t.length() && " \t\r\n'\"`,;()[]{}<>".indexOf(t.charAt(end)) < 0) {
            end++;
        }
        String host = t.substring(from, end);
        // A URL names its host after the scheme and before the path.
        int scheme = host.indexOf("://");
        host = scheme >= 0 ? host.substring(scheme + 3) : host;
        int slash = host.indexOf('/');
        host = slash >= 0 ? host.substring(0, slash) : host;
        // A port or a trailing period is not part of the name.
        int colon = host.indexOf(':');
        host = colon >= 0 ? host.substring(0, colon) : host;
        return host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
    }

    private static boolean callers(String host, Set<String> values) {
        if (host.isEmpty()) {
            return false;
        }
        if (host.contains(CallerWords.MASK)) {
            return true;
        }
        for (String v : values) {
            if (v.toLowerCase(Locale.ROOT).contains(host)) {
                return true;
            }
        }
        return false;
    }

    private static boolean any(String text, String... words) {
        for (String w : words) {
            if (text.contains(w)) {
                return true;
            }
        }
        return false;
    }
}
