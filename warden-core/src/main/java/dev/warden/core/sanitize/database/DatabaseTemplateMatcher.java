package dev.warden.core.sanitize.database;

import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Finding;
import dev.warden.core.sanitize.scan.Text;
import java.util.ArrayList;
import java.util.List;

/**
 * Matches a database message against the shapes the servers write ({@link DatabaseTemplates}),
 * without backtracking, and turns the text of each slot in the matched shape into findings over
 * exactly its names and values ({@link DatabaseSlot}).
 */
final class DatabaseTemplateMatcher {

    private DatabaseTemplateMatcher() {
    }

    /**
     * The template that matches {@code [s, e)} whole with the most of the server's fixed words (so
     * {@code column "x" of relation "y" does not exist} is not read as a column named
     * {@code x" of relation "y}); its slots' findings are added to {@code out}.
     */
    static DatabaseTemplates.Template match(List<DatabaseTemplates.Template> templates, String text, int s, int e,
                                            List<Finding> out) {
        if (s >= e) {
            return null;
        }
        DatabaseTemplates.Template best = null;
        List<Finding> bestFound = List.of();
        List<Finding> scratch = new ArrayList<>();
        for (DatabaseTemplates.Template t : templates) {
            Object head = t.parts().get(0);
            if (head instanceof String literal && !text.startsWith(literal, s)) {
                continue;
            }
            if (best != null && t.literalChars() <= best.literalChars()) {
                continue;
            }
            scratch.clear();
            if (matchFrom(t, text, s, e, scratch, true) == e) {
                best = t;
                bestFound = List.copyOf(scratch);
            }
        }
        out.addAll(bestFound);
        return best;
    }

    /**
     * Matches a template from {@code s}: literals must be there; a slot runs to the first place its
     * following literal occurs (to {@code e} when it is last). No backtracking: each part is looked
     * for once. Returns where the match ended, or -1.
     */
    static int matchFrom(DatabaseTemplates.Template t, String text, int s, int e, List<Finding> out,
                                 boolean whole) {
        int pos = s;
        List<Object> parts = t.parts();
        for (int k = 0; k < parts.size(); k++) {
            Object part = parts.get(k);
            if (part instanceof String literal) {
                if (pos + literal.length() > e || !text.startsWith(literal, pos)) {
                    return -1;
                }
                pos += literal.length();
                continue;
            }
            DatabaseSlot slot = (DatabaseSlot) part;
            int slotEnd;
            if (k + 1 < parts.size()) {
                slotEnd = Text.indexOf(text, (String) parts.get(k + 1), pos + 1, e);
            } else {
                slotEnd = whole ? e : -1;
            }
            if (slotEnd <= pos) {
                return -1;
            }
            slot(slot, text, pos, slotEnd, out);
            pos = slotEnd;
        }
        return pos;
    }

    /** The findings of one slot's text: per name or value, quotes excluded. */
    static void slot(DatabaseSlot slot, String text, int s, int e, List<Finding> out) {
        if (slot.keptWhenFixed()) {
            if (!slot.fixedWords(text, s, e)) {
                add(out, DatabaseMessages.DETAIL, text, s, e);
            }
            return;
        }
        if (slot == DatabaseSlot.QUERY) {
            int a = s;
            int b = e;
            // PostgreSQL cuts a long LINE echo with "..." on either side
            if (Text.matches(text, a, "...")) {
                a += 3;
            }
            if (b - 3 >= a && text.startsWith("...", b - 3)) {
                b -= 3;
            }
            add(out, slot.kind(0), text, a, b);
            return;
        }
        if (slot.list()) {
            int from = s;
            for (int i = s; i <= e; i++) {
                if (i == e || (text.charAt(i) == ',' && i + 1 < e && text.charAt(i + 1) == ' ')) {
                    part(slot, text, from, i, out);
                    from = i + 2;
                    i++;
                }
            }
            return;
        }
        part(slot, text, s, e, out);
    }

    /** One name (split at dots outside quotes when qualified, each part named from the right) or value. */
    private static void part(DatabaseSlot slot, String text, int s, int e, List<Finding> out) {
        if (slot == DatabaseSlot.ROW && (text.startsWith("null", s) || text.startsWith("NULL", s)) && e - s == 4) {
            return; // SQL's null is no one's value
        }
        if (!slot.qualified() || slot == DatabaseSlot.ROW) {
            add(out, slot.kind(0), text, s, e);
            return;
        }
        List<int[]> names = new ArrayList<>();
        char open = 0;
        int from = s;
        for (int i = s; i < e; i++) {
            char c = text.charAt(i);
            if (open != 0) {
                if (c == open) {
                    open = 0;
                }
            } else if (c == '"' || c == '`' || c == '[') {
                open = c == '[' ? ']' : c;
            } else if (c == '.' && names.size() < 8) {
                names.add(new int[] {from, i});
                from = i + 1;
            }
        }
        names.add(new int[] {from, e});
        for (int n = 0; n < names.size(); n++) {
            int[] name = names.get(n);
            add(out, slot.kind(names.size() - 1 - n), text, name[0], name[1]);
        }
    }

    /**
     * A finding over {@code [s, e)} less the spaces around it, and the quotes around a name or value
     * (free text of no known shape is taken whole, quotes and all).
     */
    static void add(List<Finding> out, String kind, String text, int s, int e) {
        boolean unquote = !kind.equals(DatabaseMessages.DETAIL);
        int a = s;
        int b = e;
        while (a < b && (text.charAt(a) == ' ' || (unquote && quote(text.charAt(a))))) {
            a++;
        }
        while (b > a && (text.charAt(b - 1) == ' ' || (unquote && quote(text.charAt(b - 1))))) {
            b--;
        }
        if (b > a) {
            out.add(new Finding(Category.DATABASE, kind, a, b));
        }
    }

    private static boolean quote(char c) {
        return c == '"' || c == '\'' || c == '`' || c == '[' || c == ']';
    }
}
