package dev.warden.core.sanitize.trace;

import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Detector;
import dev.warden.core.sanitize.detection.Finding;
import dev.warden.core.sanitize.scan.Text;
import java.util.List;

/**
 * Stack traces of Java (with {@code Caused by:} and {@code ... N more}), Python, Node.js, Go
 * (panics and goroutine dumps), .NET, Ruby, PHP and Rust. Works line by line: each line is a
 * strong trace line (a frame, a traceback header), a weak one (an exception line, a "Caused by",
 * a source line under a Python frame) or neither. A run of strong and weak lines with at least one
 * strong line is one trace, reported whole so the policy can remove it whole.
 */
public final class StackTraceDetector implements Detector {

    private static final int NONE = 0;
    private static final int WEAK = 1;
    private static final int STRONG = 2;

    @Override
    public Category category() {
        return Category.STACK_TRACE;
    }

    @Override
    public void scan(String text, List<Finding> out) {
        int n = text.length();
        int runStart = -1;
        int runEnd = -1;
        boolean runStrong = false;
        boolean previousWasPythonFrame = false;
        boolean inGoTrace = false;
        int previousStart = -1;
        int lineStart = 0;
        int[] nextColon = {-1}; // a forward-only cursor: each line's ':' search starts where the last ended
        int messageEnd = -1; // the end of the run's first line when it is a message line to keep
        int lastLine = -1; // the start of the run's last line (a Python traceback's message)
        while (lineStart <= n) {
            int lineEnd = text.indexOf('\n', lineStart);
            if (lineEnd < 0) {
                lineEnd = n;
            }
            int kind = classify(text, lineStart, lineEnd, previousWasPythonFrame, nextColon);
            if (kind == NONE && inGoTrace && isGoCall(text, firstNonSpace(text, lineStart, lineEnd),
                    lastNonSpace(text, lineStart, lineEnd))) {
                kind = WEAK; // "main.main()" between a goroutine header and its file line
            }
            inGoTrace = kind != NONE && (inGoTrace || contains(text, lineStart, lineEnd, "goroutine ")
                    || contains(text, lineStart, lineEnd, ".go:"));
            previousWasPythonFrame = isPythonFrame(text, firstNonSpace(text, lineStart, lineEnd), lineEnd);
            if (kind != NONE) {
                if (runStart < 0) {
                    // The line just above a trace often carries the exception after some prose
                    // ("Tool failed: java.io.IOException: x"): it belongs to the trace.
                    runStart = kind == STRONG && previousStart >= 0
                            && containsExceptionName(text, previousStart, lineStart - 1) ? previousStart : lineStart;
                    runStrong = false;
                    int firstEnd = runStart == lineStart ? lineEnd : lineStart - 1;
                    messageEnd = isMessageLine(text, runStart, firstEnd) ? firstEnd : -1;
                }
                runEnd = lineEnd;
                lastLine = lineStart;
                runStrong |= kind == STRONG;
            } else if (runStart >= 0) {
                emitRun(text, out, runStart, messageEnd, lastLine, runEnd, runStrong);
                runStart = -1;
            }
            if (lineEnd == n) {
                break;
            }
            previousStart = lineStart;
            lineStart = lineEnd + 1;
        }
        if (runStart >= 0) {
            emitRun(text, out, runStart, messageEnd, lastLine, runEnd, runStrong);
        }
    }

    /**
     * One run, less its message line: the first line where JavaScript prints it, the last where a
     * Python traceback does ({@code NameError: name 'cart_total' is not defined} after the frames).
     */
    private static void emitRun(String text, List<Finding> out, int runStart, int messageEnd, int lastLine,
            int runEnd, boolean strong) {
        int start = messageEnd >= 0 && messageEnd < runEnd ? messageEnd + 1 : runStart;
        int end = runEnd;
        if (lastLine > start && Text.matches(text, firstNonSpace(text, runStart, runEnd), "Traceback (most recent call last)")
                && isMessageLine(text, lastLine, runEnd)) {
            end = lastLine - 1; // the line break before the message goes with the frames
        }
        emit(out, start, end, strong);
    }

    /**
     * A trace's message line under a plain name, as JavaScript (first) and Python (last) print it
     * ({@code ReferenceError: cartTotal is not defined}): it says what went wrong in the
     * caller's terms and stays (the other detectors still read it); the frames below go. A dotted
     * name ({@code com.acme.repo.UserException}) is the server's class and goes with its trace.
     */
    private static boolean isMessageLine(String text, int lineStart, int lineEnd) {
        if (lineStart >= lineEnd || !Text.isUpper(text.charAt(lineStart)) || !isExceptionLine(text, lineStart, lineEnd)) {
            return false;
        }
        for (int i = lineStart; i < lineEnd && text.charAt(i) != ':'; i++) {
            if (text.charAt(i) == '.' || text.charAt(i) == '$') {
                return false;
            }
        }
        return true;
    }

    /** A Go frame's call line: {@code pkg/path.Func(0x1, …)} or {@code main.(*T).m(…)}, nothing else on it. */
    private static boolean isGoCall(String text, int s, int e) {
        if (e - s < 4 || text.charAt(e - 1) != ')') {
            return false;
        }
        boolean dot = false;
        for (int i = s; i < e; i++) {
            char c = text.charAt(i);
            if (c == '(') {
                return dot && i > s;
            }
            if (c == '.') {
                dot = true;
            } else if (!(Text.isWordChar(c) || c == '/' || c == '-')) {
                return false;
            }
        }
        return false;
    }

    /** A dotted or plain identifier ending in Exception/Error/… followed by ':' or the end of the line. */
    private static boolean containsExceptionName(String text, int s, int e) {
        int i = s;
        while (i < e) {
            if (Text.isWordChar(text.charAt(i)) && (i == s || !(Text.isWordChar(text.charAt(i - 1))
                    || text.charAt(i - 1) == '.'))) {
                int j = i;
                while (j < e && (Text.isWordChar(text.charAt(j)) || text.charAt(j) == '.' || text.charAt(j) == '$')) {
                    j++;
                }
                if ((j == e || text.charAt(j) == ':') && isExceptionLine(text, i, j)) {
                    return true;
                }
                i = j;
            } else {
                i++;
            }
        }
        return false;
    }

    private static void emit(List<Finding> out, int start, int end, boolean strong) {
        if (strong && end > start) {
            out.add(new Finding(Category.STACK_TRACE, "stack-trace", start, end));
        }
    }

    private static int firstNonSpace(String text, int from, int to) {
        int i = from;
        while (i < to && (text.charAt(i) == ' ' || text.charAt(i) == '\t' || text.charAt(i) == '\r')) {
            i++;
        }
        return i;
    }

    private static int lastNonSpace(String text, int from, int to) {
        int i = to;
        while (i > from && Text.isSpace(text.charAt(i - 1))) {
            i--;
        }
        return i;
    }

    static int classify(String text, int lineStart, int lineEnd, boolean afterPythonFrame, int[] nextColon) {
        int s = firstNonSpace(text, lineStart, lineEnd);
        int e = lastNonSpace(text, s, lineEnd);
        if (s >= e) {
            return NONE;
        }
        boolean indented = s > lineStart;
        char c = text.charAt(s);
        switch (c) {
            case 'a' -> {
                if (Text.matches(text, s, "at ") && isAtFrame(text, s + 3, e)) {
                    return STRONG;
                }
            }
            case 'T' -> {
                if (Text.matches(text, s, "Traceback (most recent call last)")) {
                    return STRONG;
                }
            }
            case 'F' -> {
                if (isPythonFrame(text, s, e)) {
                    return STRONG;
                }
                if (Text.matches(text, s, "Fatal error: ")) {
                    return WEAK;
                }
            }
            case 'C' -> {
                if (Text.matches(text, s, "Caused by: ")) {
                    return WEAK;
                }
            }
            case 'S' -> {
                if (Text.matches(text, s, "Suppressed: ") || Text.matches(text, s, "Stack trace:")) {
                    return Text.matches(text, s, "Stack trace:") ? STRONG : WEAK;
                }
            }
            case '.' -> {
                if (Text.matches(text, s, "... ") && e > s + 4 && Text.isDigit(text.charAt(s + 4))
                        && (text.startsWith("more", e - 4) || text.startsWith("omitted", e - 7))) {
                    return WEAK;
                }
            }
            case 'g' -> {
                if (Text.matches(text, s, "goroutine ") && Text.indexOf(text, '[', s, e) > 0 && text.charAt(e - 1) == ':') {
                    return STRONG;
                }
            }
            case 'p' -> {
                if (Text.matches(text, s, "panic: ")) {
                    return WEAK;
                }
            }
            case 't' -> {
                if (Text.matches(text, s, "thread '") && contains(text, s, e, "' panicked at ")) {
                    return STRONG;
                }
                if (Text.matches(text, s, "thrown in ") && contains(text, s, e, " on line ")) {
                    return STRONG;
                }
            }
            case 's' -> {
                if (Text.matches(text, s, "stack backtrace:")) {
                    return STRONG;
                }
            }
            case 'n' -> {
                if (Text.matches(text, s, "note: run with `RUST_BACKTRACE")) {
                    return WEAK;
                }
            }
            case 'c' -> {
                if (Text.matches(text, s, "created by ")) {
                    return STRONG;
                }
            }
            case '#' -> {
                if (isPhpFrame(text, s, e)) {
                    return STRONG;
                }
            }
            case '-' -> {
                if (Text.matches(text, s, "--- End of ") || Text.matches(text, s, "---> ")) {
                    return WEAK;
                }
            }
            case 'E' -> {
                if (Text.matches(text, s, "Exception in thread ")) {
                    return WEAK;
                }
            }
            default -> {
                // fall through to the shape checks below
            }
        }
        // Ruby and Go frames name a source file: ".rb:" / ".go:". One search for ':' after a
        // two-letter extension keeps ordinary lines to a single scan.
        if (hasSourceSuffix(text, s, e, nextColon)) {
            if (Text.matches(text, s, "from ") && isRubyFrame(text, s + 5, e)) {
                return STRONG;
            }
            if (isRubyFrame(text, s, e) || isGoFileLine(text, s, e)) {
                return STRONG;
            }
        }
        if (indented && isRustFrameNumber(text, s, e, true)) {
            return STRONG;
        }
        if (isExceptionLine(text, s, e)) {
            return WEAK;
        }
        if (afterPythonFrame && indented) {
            return WEAK;
        }
        if (isGoFunctionLine(text, s, e)) {
            return WEAK;
        }
        return NONE;
    }

    /** {@code at com.x.Y.m(Y.java:12)}, {@code at fn (/a/b.js:1:2)}, {@code at X.M() in C:\a.cs:line 4}. */
    private static boolean isAtFrame(String text, int s, int e) {
        if (s >= e) {
            return false;
        }
        int paren = Text.indexOf(text, '(', s, e);
        if (paren < 0) {
            // Node.js without a function name: "at /app/x.js:10:5" or "at file:///app/x.mjs:1:2"
            return hasLineColumn(text, s, e);
        }
        boolean spaceBeforeParen = false;
        for (int i = s; i < paren; i++) {
            if (text.charAt(i) == ' ') {
                spaceBeforeParen = true;
                break;
            }
        }
        if (!spaceBeforeParen) {
            // Java / .NET: the method reference is one token with dots.
            return Text.indexOf(text, '.', s, paren) >= 0
                    && (text.charAt(e - 1) == ')' || contains(text, paren, e, ":line "));
        }
        // Node.js "at fn (location)", "at async fn (location)", "at new X (location)"
        return text.charAt(e - 1) == ')' && (hasLineColumn(text, paren, e) || contains(text, paren, e, "<anonymous>")
                || contains(text, paren, e, "native") || contains(text, paren, e, "index "));
    }

    private static boolean hasLineColumn(String text, int s, int e) {
        for (int i = s; i < e - 1; i++) {
            if (text.charAt(i) == ':' && Text.isDigit(text.charAt(i + 1))) {
                int j = i + 1;
                while (j < e && Text.isDigit(text.charAt(j))) {
                    j++;
                }
                if (j < e && text.charAt(j) == ':' && j + 1 < e && Text.isDigit(text.charAt(j + 1))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** {@code File "/app/x.py", line 12, in handler}. */
    private static boolean isPythonFrame(String text, int s, int e) {
        return Text.matches(text, s, "File \"") && contains(text, s, e, "\", line ");
    }

    /** {@code #0 /var/www/x.php(12): f()} or {@code #1 {main}}. */
    private static boolean isPhpFrame(String text, int s, int e) {
        int i = s + 1;
        if (i >= e || !Text.isDigit(text.charAt(i))) {
            return false;
        }
        while (i < e && Text.isDigit(text.charAt(i))) {
            i++;
        }
        return i < e && text.charAt(i) == ' ' && (contains(text, i, e, "): ") || contains(text, i, e, "{main}")
                || contains(text, i, e, "[internal function]"));
    }

    private static boolean hasSourceSuffix(String text, int s, int e, int[] nextColon) {
        int colon = nextColon[0];
        if (colon < s + 3) {
            colon = text.indexOf(':', s + 3); // vectorised; the cursor keeps the whole scan linear
            nextColon[0] = colon < 0 ? Integer.MAX_VALUE : colon;
        }
        for (colon = nextColon[0]; colon < e; colon = text.indexOf(':', colon + 1)) {
            if (colon < 0) {
                nextColon[0] = Integer.MAX_VALUE;
                return false;
            }
            nextColon[0] = colon;
            if (text.charAt(colon - 3) == '.'
                    && ((text.charAt(colon - 2) == 'r' && text.charAt(colon - 1) == 'b')
                    || (text.charAt(colon - 2) == 'g' && text.charAt(colon - 1) == 'o'))) {
                return true;
            }
        }
        nextColon[0] = colon;
        return false;
    }

    /** {@code /app/x.rb:10:in `m'} (Ruby). */
    private static boolean isRubyFrame(String text, int s, int e) {
        int at = indexOf(text, s, e, ".rb:");
        return at > s && contains(text, at, e, ":in ");
    }

    /** {@code \t/usr/local/go/src/runtime/panic.go:838 +0x207} (Go). */
    private static boolean isGoFileLine(String text, int s, int e) {
        int at = indexOf(text, s, e, ".go:");
        return at > s && at + 4 < e && Text.isDigit(text.charAt(at + 4));
    }

    /** {@code main.handler(0xc000010000, 0x1)} directly above a Go file line. */
    private static boolean isGoFunctionLine(String text, int s, int e) {
        if (text.charAt(e - 1) != ')') {
            return false;
        }
        int paren = Text.indexOf(text, '(', s, e);
        if (paren <= s) {
            return false;
        }
        for (int i = s; i < paren; i++) {
            char c = text.charAt(i);
            if (c == ' ') {
                return false;
            }
        }
        return Text.indexOf(text, '.', s, paren) >= 0
                && (contains(text, paren, e, "0x") || contains(text, paren, e, "..."));
    }

    /** {@code   12: std::panicking::begin_panic} (Rust backtrace). */
    private static boolean isRustFrameNumber(String text, int s, int e, boolean indented) {
        if (!indented) {
            return false;
        }
        int i = s;
        while (i < e && Text.isDigit(text.charAt(i))) {
            i++;
        }
        return i > s && i + 1 < e && text.charAt(i) == ':' && text.charAt(i + 1) == ' '
                && contains(text, i, e, "::");
    }

    /**
     * {@code java.lang.IllegalStateException: boom}, {@code ValueError: bad}, {@code TypeError: x}:
     * an identifier (dots allowed) ending in Error, Exception, Throwable, Warning or Panic, then a
     * colon or the end of the line.
     */
    static boolean isExceptionLine(String text, int s, int e) {
        int i = s;
        while (i < e) {
            char c = text.charAt(i);
            if (Text.isWordChar(c) || c == '.' || c == '$') {
                i++;
            } else {
                break;
            }
        }
        if (i == s || (i < e && text.charAt(i) != ':')) {
            return false;
        }
        return endsWithAny(text, s, i, "Exception", "Error", "Throwable", "Warning", "Panic", "Fault", "Interrupt");
    }

    private static boolean endsWithAny(String text, int s, int e, String... suffixes) {
        for (String suffix : suffixes) {
            int from = e - suffix.length();
            if (from >= s && text.startsWith(suffix, from)) {
                return true;
            }
        }
        return false;
    }

    private static boolean contains(String text, int s, int e, String literal) {
        return indexOf(text, s, e, literal) >= 0;
    }

    private static int indexOf(String text, int s, int e, String literal) {
        return Text.indexOf(text, literal, s, e);
    }
}
