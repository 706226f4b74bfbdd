package dev.warden.core.sanitize.trace;

import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Detector;
import dev.warden.core.sanitize.detection.Finding;
import java.util.ArrayList;
import java.util.List;

/**
 * Stack traces inside an HTML error page, as a web framework in development mode serves them (Express:
 * {@code <pre>Error: …<br> &nbsp; &nbsp;at fn (/app/x.js:1:2)<br> …</pre>}) and an MCP tool passes on
 * in its failure. The page is read as the text it shows (tags break lines, {@code &nbsp;} and the
 * other entities a trace holds are their characters), the line-based {@link StackTraceDetector} runs
 * over that, and each trace it finds is reported at the span of the page it came from. One pass to
 * decode, one to scan: linear.
 */
public final class HtmlStackTraceDetector implements Detector {

    /** Tags are short: {@code <br>}, {@code <br />}, {@code </pre>}; anything longer is left as text. */
    private static final int MAX_TAG = 8;
    private static final String[][] ENTITIES = {{"&nbsp;", " "}, {"&#39;", "'"}, {"&quot;", "\""}, {"&lt;", "<"},
        {"&gt;", ">"}, {"&amp;", "&"}, {"&#x27;", "'"}, {"&#x2F;", "/"}};

    private final StackTraceDetector lines = new StackTraceDetector();

    @Override
    public Category category() {
        return Category.STACK_TRACE;
    }

    @Override
    public void scan(String text, List<Finding> out) {
        if (!containsIgnoreCase(text, "<br")) {
            return; // not HTML with line breaks: the line-based detector has seen it as it is
        }
        int n = text.length();
        StringBuilder shown = new StringBuilder(n);
        int[] origin = new int[n + 1]; // origin[k]: where in the page the k-th shown character starts
        int i = 0;
        while (i < n) {
            origin[shown.length()] = i;
            char c = text.charAt(i);
            int tagEnd = c == '<' ? tagEnd(text, i) : -1;
            if (tagEnd > 0) {
                shown.append('\n');
                i = tagEnd;
                continue;
            }
            String entity = c == '&' ? entity(text, i) : null;
            if (entity != null) {
                shown.append(decoded(entity));
                i += entity.length();
                continue;
            }
            shown.append(c);
            i++;
        }
        origin[shown.length()] = n;
        List<Finding> found = new ArrayList<>();
        lines.scan(shown.toString(), found);
        for (Finding f : found) {
            out.add(new Finding(Category.STACK_TRACE, f.kind(), origin[f.start()], origin[f.end()]));
        }
    }

    /** The end of a short tag such as {@code <br>} or {@code </pre>} at {@code at}, or -1. */
    private static int tagEnd(String text, int at) {
        int limit = Math.min(text.length(), at + MAX_TAG);
        int i = at + 1;
        if (i < limit && text.charAt(i) == '/') {
            i++;
        }
        int nameStart = i;
        while (i < limit && Character.isLetter(text.charAt(i))) {
            i++;
        }
        if (i == nameStart) {
            return -1;
        }
        while (i < limit && (text.charAt(i) == ' ' || text.charAt(i) == '/')) {
            i++;
        }
        return i < limit && text.charAt(i) == '>' ? i + 1 : -1;
    }

    private static String entity(String text, int at) {
        for (String[] e : ENTITIES) {
            if (text.startsWith(e[0], at)) {
                return e[0];
            }
        }
        return null;
    }

    private static char decoded(String entity) {
        for (String[] e : ENTITIES) {
            if (e[0].equals(entity)) {
                return e[1].charAt(0);
            }
        }
        return '?';
    }

    private static boolean containsIgnoreCase(String text, String lowerCase) {
        for (int at = text.indexOf('<'); at >= 0; at = text.indexOf('<', at + 1)) {
            if (text.regionMatches(true, at, lowerCase, 0, lowerCase.length())) {
                return true;
            }
        }
        return false;
    }
}
