package dev.warden.core.sanitize.database;

import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Finding;
import dev.warden.core.sanitize.scan.Text;
import dev.warden.core.sanitize.scan.WordScanner;
import dev.warden.core.sanitize.scan.Words;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Database errors from PostgreSQL, MySQL/MariaDB, SQLite, Oracle, SQL Server, MongoDB and the
 * common ORMs and drivers, and raw SQL statements. An error is found by a phrase or code of its
 * message ({@code duplicate key value violates}, {@code ORA-00942}, {@code Msg 208, Level 16}, a
 * driver's exception name), walked back over its driver prefixes, and read by
 * {@link DatabaseMessages}: a message of a known shape is kept with a finding over exactly each
 * name, value and echo in it (the caller's own are kept, the server's redacted); one of no known
 * shape is one finding, replaced by the safe message of its SQLSTATE ({@link #sqlStateOf}).
 */
public final class DatabaseErrorDetector implements WordScanner {

    @Override
    public Category category() {
        return Category.DATABASE;
    }

    @Override
    public Map<String, Integer> wordClasses() {
        return WORD_CLASSES;
    }

    /**
     * One walk over the words for both kinds of finding. An error spans its line (and the lines the
     * server adds); a statement runs to its terminator. Each kind resumes after its own last
     * finding, so a statement inside an error line is still seen, as when each had its own pass.
     */
    @Override
    public void scan(Words words, List<Finding> out) {
        String text = words.text();
        int lineStart = 0;
        int lineEnd = Text.lineEnd(text, 0);
        int errorsFrom = 0;
        int statementsFrom = 0;
        int[] noFromUntil = new int[2]; // per scan, so one detector serves many threads
        Words.Classified classified = words.classified();
        for (int k = 0; k < classified.size(); k++) {
            int mask = classified.mask(k);
            if ((mask & (HEAD | VERB)) == 0) {
                continue;
            }
            int w = classified.word(k);
            int at = words.start(w);
            int end = words.end(w);
            if ((mask & HEAD) != 0 && at >= errorsFrom) {
                if (at > lineEnd) {
                    // One indexOf over however many lines passed without a marker word; the start
                    // of the line is only looked for when a marker is there.
                    lineEnd = Text.lineEnd(text, at);
                    lineStart = -1;
                }
                boolean[] weak = {false};
                int marker = DatabaseMarkers.markerAt(text, at, lineEnd, weak);
                if (marker >= 0 && lineStart < 0) {
                    lineStart = text.lastIndexOf('\n', at - 1) + 1;
                }
                if (marker >= 0) {
                    int start = DatabaseMarkers.extendBack(text, lineStart, marker);
                    int errorEnd = DatabaseMessages.read(text, lineStart, start, lineEnd, out, weak[0]);
                    if (errorEnd >= 0) {
                        errorsFrom = errorEnd + 1;
                    }
                }
            }
            char c = text.charAt(at);
            // A verb starts a word of its own: not after '_', which joins words in SQL identifiers.
            if ((mask & VERB) != 0 && at >= statementsFrom && (c | 0x20) >= 'a' && (c | 0x20) <= 'z'
                    && (at == 0 || text.charAt(at - 1) != '_')) {
                int statementEnd = SqlStatements.statementEnd(text, at, end, noFromUntil);
                if (statementEnd > 0) {
                    out.add(new Finding(Category.DATABASE, "sql", at, statementEnd));
                    statementsFrom = statementEnd;
                }
            }
        }
    }

    static final int HEAD = 1 << 25;
    static final int VERB = 1 << 26;

    /**
     * The first words of the phrases and other markers ({@code ORA-}, {@code Msg 2627, Level},
     * {@code ERROR 1062}), and the SQL verbs. {@link Words} classifies every word once against
     * these (and the other detectors' words); a word in none of them is never looked at here.
     */
    public static final Map<String, Integer> WORD_CLASSES;

    static {
        Map<String, Integer> heads = new HashMap<>();
        for (DatabaseMarkers.Phrase phrase : DatabaseMarkers.PHRASES) {
            String p = phrase.text();
            int end = 1;
            while (end < p.length() && (Text.isAlnum(p.charAt(end)) || p.charAt(end) == '_')) {
                end++;
            }
            heads.merge(p.substring(0, end), HEAD, (a, b) -> a | b);
        }
        for (String marker : new String[] {"ORA", "Msg", "ERROR"}) {
            heads.merge(marker, HEAD, (a, b) -> a | b);
        }
        for (String verb : SqlStatements.VERBS) {
            heads.merge(verb, VERB, (a, b) -> a | b);
        }
        WORD_CLASSES = Map.copyOf(heads);
    }

    /**
     * The phrases of a statement whose syntax broke, each as (database, phrase), in the table's
     * order: what {@link dev.warden.core.sanitize.SqlSyntaxErrors} gives the audit.
     */
    public static List<Map.Entry<String, String>> syntaxPhrases() {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        for (DatabaseMarkers.Phrase phrase : DatabaseMarkers.PHRASES) {
            if (!phrase.database().isEmpty()) {
                out.add(Map.entry(phrase.database(), phrase.text()));
            }
        }
        return List.copyOf(out);
    }

    // ---- mapping ------------------------------------------------------------------------------

    /**
     * The SQLSTATE a database error span implies: its message's shape, else its prefix's vendor
     * code or stated SQLSTATE, else an explicit state, vendor code or phrase anywhere in it. The
     * shape and prefix are the server's own words, so what the caller wrote (an echo of its query)
     * cannot choose the code of an error of a known shape. Linear in the span; the sanitizer passes
     * only the head of a long one.
     */
    public static Optional<String> sqlStateOf(String span) {
        Optional<String> read = DatabaseMessages.stateOf(span);
        if (read.isPresent()) {
            return read;
        }
        Optional<String> explicit = explicitState(span);
        if (explicit.isPresent()) {
            return explicit;
        }
        int ora = DatabaseMarkers.oraCode(span, 0, span.length());
        if (ora >= 0) {
            Optional<String> state = DatabasePrefixes.vendorState("oracle", span.substring(ora + 4, ora + 9));
            if (state.isPresent()) {
                return state;
            }
        }
        int mysql = DatabaseMarkers.mysqlCodeAt(span, 0, span.length());
        if (mysql >= 0) {
            Optional<String> state = DatabasePrefixes.vendorState("mysql", span.substring(mysql + 6, mysql + 10));
            if (state.isPresent()) {
                return state;
            }
        }
        int msg = span.indexOf("Msg ");
        if (msg >= 0) {
            int j = msg + 4;
            while (j < span.length() && (Text.isDigit(span.charAt(j)) || span.charAt(j) == '-')) {
                j++;
            }
            Optional<String> state = DatabasePrefixes.vendorState("sqlserver", span.substring(msg + 4, j));
            if (state.isPresent()) {
                return state;
            }
        }
        for (DatabaseMarkers.Phrase phrase : DatabaseMarkers.PHRASES) {
            if (!phrase.state().isEmpty() && span.contains(phrase.text())) {
                return Optional.of(phrase.state());
            }
        }
        return Optional.empty();
    }

    /** {@code SQLSTATE 23505}, {@code SQLSTATE[23000]}, {@code SQLState: 40001}, {@code [23505-252]} (H2). */
    private static Optional<String> explicitState(String span) {
        int at = indexOfIgnoreCase(span, "sqlstate");
        while (at >= 0) {
            int i = at + 8;
            while (i < span.length() && (span.charAt(i) == ' ' || span.charAt(i) == ':' || span.charAt(i) == '['
                    || span.charAt(i) == '=' || span.charAt(i) == '(' || span.charAt(i) == '"')) {
                i++;
            }
            if (i + 5 <= span.length() && isStateChars(span, i)) {
                return Optional.of(span.substring(i, i + 5));
            }
            at = indexOfIgnoreCase(span, "sqlstate", at + 8);
        }
        int bracket = span.indexOf('[');
        while (bracket >= 0 && bracket + 7 <= span.length()) {
            if (isStateChars(span, bracket + 1) && span.charAt(bracket + 6) == '-') {
                return Optional.of(span.substring(bracket + 1, bracket + 6));
            }
            bracket = span.indexOf('[', bracket + 1);
        }
        return Optional.empty();
    }

    private static boolean isStateChars(String s, int at) {
        if (at + 5 > s.length()) {
            return false;
        }
        for (int k = 0; k < 5; k++) {
            char c = s.charAt(at + k);
            if (!(Text.isDigit(c) || Text.isUpper(c))) {
                return false;
            }
        }
        return Text.isDigit(s.charAt(at)) && (at + 5 == s.length() || !Text.isAlnum(s.charAt(at + 5)));
    }

    private static int indexOfIgnoreCase(String s, String lower) {
        return indexOfIgnoreCase(s, lower, 0);
    }

    private static int indexOfIgnoreCase(String s, String lower, int from) {
        for (int i = from; i + lower.length() <= s.length(); i++) {
            if (Text.matchesIgnoreCase(s, i, lower)) {
                return i;
            }
        }
        return -1;
    }
}
