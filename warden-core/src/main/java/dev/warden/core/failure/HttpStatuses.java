package dev.warden.core.failure;

import dev.warden.core.error.ErrorCode;
import java.util.List;
import java.util.Optional;

/**
 * The one table of HTTP statuses (RFC 9110) to codes, for a status in an error's structure
 * ({@code status}, {@code statusCode}) and one a tool reports in its words ("Failed to fetch …:
 * HTTP error: 404", "Request failed with status code 503"). A status is what the far side said
 * about the request: a 4xx is the request's (the caller's to fix), a 5xx or a 429 the far side
 * failing or busy. Statuses that say nothing certain (402, 418…) map to nothing.
 */
public final class HttpStatuses {

    /** Phrases a status follows in prose, lower case, in the order they are looked for. */
    private static final List<String> BEFORE = List.of("http error: ", "http error ", "status code: ",
            "status code ", "status: ", "status ", "http/1.1 ", "http/2 ", "http ");

    private HttpStatuses() {
    }

    /** The code of a failure with this status, if the status says one. */
    public static Optional<ErrorCode> code(int status) {
        ErrorCode code = switch (status) {
            // the request as made: its form, method, media type, range or length
            case 400, 405, 406, 411, 413, 414, 415, 416, 422 -> ErrorCode.VALIDATION_ERROR;
            case 401, 403, 407, 451 -> ErrorCode.PERMISSION_DENIED;
            case 404, 410 -> ErrorCode.NOT_FOUND;
            // the state of what the request acts on
            case 409, 412, 423 -> ErrorCode.CONFLICT;
            case 408, 504 -> ErrorCode.TIMEOUT;
            case 429 -> ErrorCode.RATE_LIMITED;
            default -> status >= 500 && status <= 599 ? ErrorCode.UPSTREAM_ERROR : null;
        };
        return Optional.ofNullable(code);
    }

    /**
     * The first status 400..599 in {@code lowerCaseText} that follows one of the phrases, if any.
     * A plain scan; no regular expressions.
     */
    public static Optional<Integer> in(String lowerCaseText) {
        for (String phrase : BEFORE) {
            int from = 0;
            int at;
            while ((at = lowerCaseText.indexOf(phrase, from)) >= 0) {
                int start = at + phrase.length();
                if (start + 3 <= lowerCaseText.length() && digits(lowerCaseText, start)
                        && (start + 3 == lowerCaseText.length() || !Character.isDigit(lowerCaseText.charAt(start + 3)))) {
                    int status = Integer.parseInt(lowerCaseText, start, start + 3, 10);
                    if (status >= 400 && status <= 599) {
                        return Optional.of(status);
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
}
