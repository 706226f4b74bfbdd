package dev.warden.core.sanitize.database;

import dev.warden.core.sanitize.detection.Finding;
import dev.warden.core.sanitize.scan.Text;
import java.util.ArrayList;
import java.util.List;

/**
 * The lines a database server adds after an error's message ({@code DETAIL:}, {@code HINT:},
 * {@code LINE 1:} and its caret, {@code Position:}, {@code CONTEXT:} and the like), each read as
 * what it is: a known shape with its slots, an echo of the query, or detail redacted whole.
 */
final class DatabaseAddedLines {

    private DatabaseAddedLines() {
    }

    /**
     * The lines after the message that belong to it, read each as what it is. Returns the end of
     * the last one (or of the message line when none follows).
     */
    static int addedLines(String text, int lineEnd, List<Finding> out) {
        int n = text.length();
        int end = lineEnd;
        int next = lineEnd + 1;
        while (next < n) {
            int nextEnd = Text.lineEnd(text, next);
            if (!addedLine(text, next, nextEnd, out)) {
                break;
            }
            end = nextEnd;
            next = nextEnd + 1;
        }
        return end;
    }

    private static final String[] REDACTED_LABELS = {"CONTEXT:", "Where:", "QUERY:", "Query:", "STATEMENT:",
            "Internal Query:", "Routine:", "File:", "Line:", "Server SQLState:", "SQL:", "Error Code:", "[parameters:",
            "(Background on this error", "[SQL:",
            // psql with VERBOSITY verbose (and libpq's PQresultVerboseErrorMessage): the error's fields
            "SCHEMA NAME:", "TABLE NAME:", "COLUMN NAME:", "DATATYPE NAME:", "CONSTRAINT NAME:", "LOCATION:"};

    private static boolean addedLine(String text, int s, int e, List<Finding> out) {
        int i = s;
        while (i < e && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        if (i >= e) {
            return false;
        }
        if (caret(text, i, e)) {
            return true;
        }
        if (Text.matches(text, i, "LINE ")) {
            int d = Text.digitsAt(text, i + 5, e);
            if (d > 0 && Text.matches(text, i + 5 + d, ": ")) {
                int from = i + 7 + d;
                if (from < e) {
                    DatabaseTemplateMatcher.slot(DatabaseSlot.QUERY, text, from, e, out);
                }
                return true;
            }
            return false;
        }
        if (Text.matches(text, i, "Position: ") || Text.matches(text, i, "POSITION: ")) {
            int from = i + 10;
            if (Text.digitsAt(text, from, e) != Text.trimEnd(text, from, e) - from) {
                DatabaseTemplateMatcher.add(out, DatabaseMessages.DETAIL, text, from, e);
            }
            return true;
        }
        String label = label(text, i, e, "DETAIL:", "Detail:");
        if (label != null) {
            labelled(DatabaseTemplates.DETAILS, text, i + label.length(), e, out);
            return true;
        }
        label = label(text, i, e, "HINT:", "Hint:");
        if (label != null) {
            labelled(DatabaseTemplates.HINTS, text, i + label.length(), e, out);
            return true;
        }
        if (Text.matches(text, i, "Call getNextException to see other errors in the batch.")) {
            return true;
        }
        for (String other : REDACTED_LABELS) {
            if (Text.matches(text, i, other)) {
                DatabaseTemplateMatcher.add(out, DatabaseMessages.DETAIL, text, i + other.length(), e);
                return true;
            }
        }
        // The sqlite3 shell echoes the statement, indented, above a caret line.
        if (i - s >= 2 && e < text.length()) {
            int after = e + 1;
            int afterEnd = Text.lineEnd(text, after);
            int j = after;
            while (j < afterEnd && text.charAt(j) == ' ') {
                j++;
            }
            if (j < afterEnd && caret(text, j, afterEnd)) {
                DatabaseTemplateMatcher.slot(DatabaseSlot.QUERY, text, i, e, out);
                return true;
            }
        }
        return false;
    }

    private static String label(String text, int i, int e, String... labels) {
        for (String l : labels) {
            if (Text.matches(text, i, l) && i + l.length() <= e) {
                return l;
            }
        }
        return null;
    }

    /** A DatabaseMessages.DETAIL or HINT: its known shape with its slots, else all of it after the label. */
    private static void labelled(List<DatabaseTemplates.Template> shapes, String text, int s, int e, List<Finding> out) {
        int from = s;
        while (from < e && text.charAt(from) == ' ') {
            from++;
        }
        int end = Text.trimEnd(text, from, e);
        if (end - from > DatabaseMessages.MAX_MESSAGE_CHARS
                || DatabaseTemplateMatcher.match(shapes, text, from, end, out) == null) {
            DatabaseTemplateMatcher.add(out, DatabaseMessages.DETAIL, text, from, end);
        }
    }

    /** A caret line: {@code ^} under the place of a syntax error (psql), or {@code ^--- error here} (sqlite3). */
    private static boolean caret(String text, int i, int e) {
        if (text.charAt(i) != '^') {
            return false;
        }
        int end = Text.trimEnd(text, i, e);
        return end == i + 1 || (end - i == 15 && Text.matches(text, i, "^--- error here"));
    }

    /** The old end of an error of no known shape: its line and the continuation lines after it. */
    static int fallbackEnd(String text, int lineEnd) {
        List<Finding> ignored = new ArrayList<>();
        return addedLines(text, lineEnd, ignored);
    }
}
