package dev.warden.core.sanitize.database;

import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Detector;
import dev.warden.core.sanitize.detection.Finding;
import dev.warden.core.sanitize.scan.Text;
import java.util.List;

/**
 * PostgreSQL's {@code CONTEXT:} and {@code QUERY:} lines wherever they stand, even under a message
 * that is no database error Warden reads (a trigger's own {@code RAISE EXCEPTION} text, a
 * traceback that hid the message): they name the server's functions and echo its internal
 * statements ({@code CONTEXT:  PL/pgSQL function cnry_trg() line 2 at RAISE}), never the caller's
 * words. The label stays, what follows it on the line is redacted. A linear scan, line by line.
 */
public final class DatabaseContextDetector implements Detector {

    private static final String[] LABELS = {"CONTEXT:  ", "QUERY:  "};

    @Override
    public Category category() {
        return Category.DATABASE;
    }

    @Override
    public void scan(String text, List<Finding> out) {
        int n = text.length();
        int line = 0;
        while (line < n) {
            int end = Text.lineEnd(text, line);
            int i = line;
            while (i < end && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
                i++;
            }
            for (String label : LABELS) {
                if (Text.matches(text, i, label) && i + label.length() < end) {
                    out.add(new Finding(Category.DATABASE, DatabaseMessages.DETAIL, i + label.length(), end));
                    break;
                }
            }
            line = end + 1;
        }
    }
}
