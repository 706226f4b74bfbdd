package dev.warden.core.sanitize.database;

import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Detector;
import dev.warden.core.sanitize.detection.Finding;
import dev.warden.core.sanitize.scan.Text;
import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's DETAIL sentences ({@code Key (email)=(…) already exists.}, {@code Failing row
 * contains (…).}) wherever they stand: drivers hand them over as a field of their own
 * (node-postgres' {@code err.detail}), servers copy that into an error's {@code data}, and then no
 * error message stands above them for {@link DatabaseErrorDetector} to read. Each is read by its
 * known shape ({@link DatabaseTemplates#DETAILS}), so its values (another customer's email, a
 * row) are findings and its fixed words stay. A linear scan: each head is looked for once per
 * line, and a match is tried over a bounded window from a bounded number of places.
 */
public final class DatabaseDetailDetector implements Detector {

    /** The fixed words each DETAIL with values starts with. */
    private static final List<String> HEADS = heads();

    /** How many places per line a shape is tried from: a hostile line of heads costs no more. */
    private static final int MAX_TRIES_PER_LINE = 16;

    @Override
    public Category category() {
        return Category.DATABASE;
    }

    @Override
    public void scan(String text, List<Finding> out) {
        int n = text.length();
        int line = 0;
        List<Finding> found = new ArrayList<>();
        while (line < n) {
            int end = Text.lineEnd(text, line);
            int tries = 0;
            for (String head : HEADS) {
                int at = Text.indexOf(text, head, line, end);
                while (at >= 0 && tries++ < MAX_TRIES_PER_LINE) {
                    int windowEnd = Math.min(end, at + DatabaseMessages.MAX_MESSAGE_CHARS);
                    int matched = longest(text, at, windowEnd, found);
                    out.addAll(found);
                    found.clear();
                    int next = matched > at ? matched : at + head.length();
                    at = next < end ? Text.indexOf(text, head, next, end) : -1;
                }
            }
            line = end + 1;
        }
    }

    /** The end of the shape with the most fixed words that matches from {@code at}, its findings in {@code out}; else -1. */
    private static int longest(String text, int at, int e, List<Finding> out) {
        DatabaseTemplates.Template best = null;
        int bestEnd = -1;
        List<Finding> scratch = new ArrayList<>();
        for (DatabaseTemplates.Template t : DatabaseTemplates.DETAILS) {
            if (!(t.parts().get(0) instanceof String head) || !text.startsWith(head, at) || t.parts().size() < 2
                    || (best != null && t.literalChars() <= best.literalChars())) {
                continue;
            }
            scratch.clear();
            int end = DatabaseTemplateMatcher.matchFrom(t, text, at, e, scratch, false);
            if (end > at) {
                best = t;
                bestEnd = end;
                out.clear();
                out.addAll(scratch);
            }
        }
        return bestEnd;
    }

    private static List<String> heads() {
        List<String> heads = new ArrayList<>();
        for (DatabaseTemplates.Template t : DatabaseTemplates.DETAILS) {
            if (t.parts().size() > 1 && t.parts().get(0) instanceof String head && !heads.contains(head)) {
                heads.add(head);
            }
        }
        return List.copyOf(heads);
    }
}
