package dev.warden.core.sanitize.trace;

import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Detector;
import dev.warden.core.sanitize.detection.Finding;
import java.util.List;

/**
 * The value of a trace-named member in JSON quoted inside an error's text ({@code "trace":"java.sql.
 * SQLTransientConnectionException: HikariPool-1 …"} in an API's 503 body that Spring's RestClient
 * relays): by its name it is the far side's internals, whatever shape its value has, and nothing
 * in it helps a caller fix a call. Also in its escaped form ({@code \"trace\":\"…\"}). A hand-written
 * scan from quote to quote: linear.
 */
public final class TraceMemberDetector implements Detector {

    private static final String[] NAMES = {"trace", "stack", "stacktrace", "stack_trace", "backtrace", "traceback",
        "exception"};

    @Override
    public Category category() {
        return Category.STACK_TRACE;
    }

    @Override
    public void scan(String text, List<Finding> out) {
        int n = text.length();
        int quote = text.indexOf('"');
        while (quote >= 0 && quote + 1 < n) {
            boolean escaped = quote > 0 && text.charAt(quote - 1) == '\\';
            int nameEnd = nameEnd(text, quote + 1);
            if (nameEnd < 0) {
                quote = text.indexOf('"', quote + 1);
                continue;
            }
            int at = nameEnd + 1; // after the closing quote of the name
            at = skipSpaces(text, at);
            if (at >= n || text.charAt(at) != ':') {
                quote = text.indexOf('"', nameEnd + 1);
                continue;
            }
            at = skipSpaces(text, at + 1);
            if (escaped && text.startsWith("\\\"", at)) {
                at += 2;
            } else if (!escaped && at < n && text.charAt(at) == '"') {
                at += 1;
            } else {
                quote = text.indexOf('"', nameEnd + 1);
                continue;
            }
            int end = valueEnd(text, at, escaped);
            if (end > at) {
                out.add(new Finding(Category.STACK_TRACE, "trace-member", at, end));
            }
            quote = end < n ? text.indexOf('"', end + 1) : -1;
        }
    }

    /** The index of the quote closing a trace name that starts at {@code from}, or -1. */
    private static int nameEnd(String text, int from) {
        for (String name : NAMES) {
            int end = from + name.length();
            if (text.regionMatches(true, from, name, 0, name.length())) {
                if (end < text.length() && text.charAt(end) == '"') {
                    return end;
                }
                if (end + 1 < text.length() && text.charAt(end) == '\\' && text.charAt(end + 1) == '"') {
                    return end + 1;
                }
            }
        }
        return -1;
    }

    private static int skipSpaces(String text, int at) {
        while (at < text.length() && (text.charAt(at) == ' ' || text.charAt(at) == '\t')) {
            at++;
        }
        return at;
    }

    /** Where the string value starting at {@code from} ends (before its closing quote), at most 64 KiB on. */
    private static int valueEnd(String text, int from, boolean escaped) {
        int limit = Math.min(text.length(), from + 64 * 1024);
        int i = from;
        while (i < limit) {
            char c = text.charAt(i);
            if (escaped) {
                if (c == '\\' && i + 1 < limit && text.charAt(i + 1) == '"') {
                    return i;
                }
                if (c == '\\' && i + 1 < limit && text.charAt(i + 1) == '\\') {
                    i += 2;
                    continue;
                }
            } else {
                if (c == '\\') {
                    i += 2;
                    continue;
                }
                if (c == '"') {
                    return i;
                }
            }
            i++;
        }
        return Math.min(i, text.length());
    }
}
