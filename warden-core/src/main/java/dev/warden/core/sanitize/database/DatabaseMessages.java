package dev.warden.core.sanitize.database;

import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Finding;
import dev.warden.core.sanitize.scan.Text;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads one database error where {@link DatabaseErrorDetector} found it: the driver's and server's
 * prefixes ({@link DatabasePrefixes}), the message against the servers' shapes
 * ({@link DatabaseTemplateMatcher}) and the lines the server adds ({@link DatabaseAddedLines}). A
 * message of a known shape is kept with findings over each name, value and echo (the caller's own
 * survive) and over the prefix; one of no known shape is replaced whole by its SQLSTATE's safe
 * message, as nothing in it can be told apart. Linear: each line is read once per shape, and a line
 * longer than {@value #MAX_MESSAGE_CHARS} not at all.
 */
public final class DatabaseMessages {

    /** A kept message: marks the error (for its SQLSTATE), is not itself replaced. */
    public static final String MESSAGE = Finding.DATABASE_MESSAGE;
    /** An error of no known shape: replaced whole by the safe message of its SQLSTATE. */
    public static final String ERROR = "database-error";
    /** The driver's and server's prefix of a kept message: removed. */
    public static final String PREFIX = "database-prefix";
    /** What an added line says beyond the shapes Warden knows, and fixed-words slots that were not. */
    public static final String DETAIL = "database-detail";

    static final int MAX_MESSAGE_CHARS = 2048;

    /** A kept message's mark or prefix: the error's structure, never a text the caller owns. */
    public static boolean structural(Finding f) {
        return f.kind().equals(MESSAGE) || f.kind().equals(PREFIX);
    }

    private DatabaseMessages() {
    }

    /**
     * Reads the error whose prefix starts at {@code start} on the line ending at {@code lineEnd},
     * adds its findings to {@code out}, and returns where the error ends. A {@code weak} marker (a
     * phrase prose also uses, such as "division by zero") is an error only in a known shape: else
     * nothing is added and -1 returned.
     */
    static int read(String text, int lineStart, int start, int lineEnd, List<Finding> out, boolean weak) {
        // A marker phrase may sit inside the message ("insert or update on table … violates foreign
        // key constraint"): read from the line's start first, then from the marker's own start.
        int from = start;
        if (lineStart < start) {
            int end = readFrom(text, lineStart, lineEnd, out, true);
            if (end >= 0) {
                return end;
            }
            // A line that opens with a driver's or server's prefix ("ERROR: … (SQLSTATE 23505)") is
            // the error from its start: an unknown message there goes whole, not from the marker on.
            DatabasePrefixes.Header line = DatabasePrefixes.header(text, lineStart, lineEnd);
            if (line != null && line.messageStart() > lineStart && line.lineEnd() == lineEnd) {
                from = lineStart;
            }
        }
        return readFrom(text, from, lineEnd, out, weak);
    }

    private static int readFrom(String text, int start, int lineEnd, List<Finding> out, boolean weak) {
        DatabasePrefixes.Header header = DatabasePrefixes.header(text, start, lineEnd);
        List<Finding> found = new ArrayList<>();
        DatabaseTemplates.Template template = null;
        if (header != null && header.lineEnd() - header.messageStart() <= MAX_MESSAGE_CHARS) {
            int messageEnd = messageEnd(text, header.messageStart(), header.lineEnd(), header.tupleQuote());
            template = DatabaseTemplateMatcher.match(DatabaseTemplates.MESSAGES, text, header.messageStart(),
                    messageEnd, found);
        }
        if (template == null) {
            if (weak) {
                return -1; // a phrase that is a database error only in a known shape
            }
            int end = Text.trimEnd(text, start,
                    DatabaseAddedLines.fallbackEnd(text, header == null ? lineEnd : header.lineEnd()));
            out.add(new Finding(Category.DATABASE, ERROR, start, end));
            return end;
        }
        int end = DatabaseAddedLines.addedLines(text, header.lineEnd(), found);
        out.add(new Finding(Category.DATABASE, MESSAGE, start, end));
        if (header.messageStart() > start) {
            out.add(new Finding(Category.DATABASE, PREFIX, start, header.messageStart()));
        }
        out.addAll(found);
        return end;
    }

    /** The SQLSTATE an error span means: its shape's, else its vendor code's or stated one's. */
    static Optional<String> stateOf(String span) {
        int lineEnd = Text.lineEnd(span, 0);
        DatabasePrefixes.Header header = DatabasePrefixes.header(span, 0, lineEnd);
        if (header == null) {
            return Optional.empty();
        }
        if (header.lineEnd() - header.messageStart() <= MAX_MESSAGE_CHARS) {
            int messageEnd = messageEnd(span, header.messageStart(), header.lineEnd(), header.tupleQuote());
            DatabaseTemplates.Template t = DatabaseTemplateMatcher.match(DatabaseTemplates.MESSAGES, span,
                    header.messageStart(), messageEnd, new ArrayList<>());
            if (t != null) {
                return Optional.of(t.state());
            }
        }
        return Optional.ofNullable(header.vendorState());
    }

    // ---- the message --------------------------------------------------------------------------

    /**
     * Where the message proper ends: before the closing quote and parenthesis of a tuple it came
     * in, and before what drivers append — {@code (SQLSTATE 42703)}, {@code (19)}, {@code (208)
     * (SQLExecDirectW)}, {@code at character 15} — which stays as it is.
     */
    private static int messageEnd(String text, int s, int lineEnd, char tupleQuote) {
        int e = Text.trimEnd(text, s, lineEnd);
        if (tupleQuote != 0 && e - 2 >= s && text.charAt(e - 1) == ')' && text.charAt(e - 2) == tupleQuote) {
            e -= 2;
        }
        for (int guard = 0; guard < 4; guard++) {
            e = Text.trimEnd(text, s, e);
            if (e > s && text.charAt(e - 1) == ')') {
                // bounded: what drivers append in parentheses is short
                int open = e - 2;
                while (open > s && e - open <= 24 && text.charAt(open) != '(') {
                    open--;
                }
                if (open > s && text.charAt(open) == '(' && appended(text, open + 1, e - 1)) {
                    e = open;
                    continue;
                }
            }
            int d = 0;
            while (e - d - 1 > s && Text.isDigit(text.charAt(e - d - 1))) {
                d++;
            }
            int at = e - d - 14;
            if (d > 0 && at > s && text.startsWith(" at character ", at)) {
                e = at;
                continue;
            }
            break;
        }
        return Text.trimEnd(text, s, e);
    }

    private static boolean appended(String text, int s, int e) {
        if (Text.digitsOrMinus(text, s, e) == e - s && e > s) {
            return true;
        }
        if (Text.matches(text, s, "SQLSTATE ") && e - s == 14) {
            return true;
        }
        return Text.matches(text, s, "SQL") && letters(text, s, e) && text.substring(s, e).indexOf(' ') < 0;
    }

    private static boolean letters(String text, int s, int e) {
        for (int i = s; i < e; i++) {
            char c = text.charAt(i);
            if (!(Text.isUpper(c) || Text.isLower(c) || c == ' ')) {
                return false;
            }
        }
        return e > s;
    }
}
