package dev.warden.gateway.internal;

import dev.warden.core.error.ErrorCode;
import java.util.List;
import java.util.Optional;

/**
 * An HTTP status a tool reports in its error text ("Failed to fetch …: HTTP error: 404", "request
 * failed with status code 403"): what a fetching tool found at the address the caller gave, so
 * the code follows the status (a 404 is the caller's to fix, a 503 the far side failing). Read
 * with a plain scan after a few fixed phrases; no regular expressions.
 */
record HttpStatus(int status) {

    /** Phrases a status follows, lower case, in the order they are looked for. */
    private static final List<String> BEFORE = List.of("http error: ", "http error ", "status code: ",
            "status code ", "status: ", "status ", "http/1.1 ", "http/2 ", "http ");

    /** The first status in {@code lowerCaseText} that follows one of the phrases, if any. */
    static Optional<HttpStatus> in(String lowerCaseText) {
        for (String phrase : BEFORE) {
            int from = 0;
            int at;
            while ((at = lowerCaseText.indexOf(phrase, from)) >= 0) {
                int start = at + phrase.length();
                if (start + 3 <= lowerCaseText.length() && digits(lowerCaseText, start)
                        && (start + 3 == lowerCaseText.length() || !Character.isDigit(lowerCaseText.charAt(start + 3)))) {
                    int status = Integer.parseInt(lowerCaseText, start, start + 3, 10);
                    if (status >= 400 && status <= 599) {
                        return Optional.of(new HttpStatus(status));
                    }
                }
                from = at + 1;
            }
        }
        return Optional.empty();
    }

    private static boolean digits(String text, int start) {
        for (int i = start; i < start + 3; i++) {
            if (!Character.isDigit(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** The code of a failure with this status; none for statuses that say nothing certain. */
    Optional<ErrorCode> code() {
        return switch (status) {
            case 400, 405, 406, 411, 413, 414, 415, 416, 422 -> Optional.of(ErrorCode.VALIDATION_ERROR);
            case 401, 403, 407, 451 -> Optional.of(ErrorCode.PERMISSION_DENIED);
            case 404, 410 -> Optional.of(ErrorCode.NOT_FOUND);
            case 409, 412 -> Optional.of(ErrorCode.CONFLICT);
            case 429 -> Optional.of(ErrorCode.RATE_LIMITED);
            case 408, 504 -> Optional.of(ErrorCode.TIMEOUT);
            default -> status >= 500 ? Optional.of(ErrorCode.UPSTREAM_ERROR) : Optional.empty();
        };
    }
}
