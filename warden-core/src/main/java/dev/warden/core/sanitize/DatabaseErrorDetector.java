package dev.warden.core.sanitize;

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

    /**
     * A marker phrase: the SQLSTATE it implies ("" when it alone does not say), where the message
     * starts when the phrase is not its start ({@code lead}, looked for back on the line; "^" for
     * the upper-case command before it), and whether it is {@code weak}: words prose also uses,
     * so an error only in a shape Warden knows.
     */
    private record Phrase(String text, String state, String lead, boolean weak) {
        Phrase(String text, String state) {
            this(text, state, "", false);
        }
    }

    private static Phrase weak(String text, String state) {
        return new Phrase(text, state, "", true);
    }

    private static Phrase led(String text, String state, String lead, boolean weak) {
        return new Phrase(text, state, lead, weak);
    }

    private static final Phrase[] PHRASES = {
            // PostgreSQL
            new Phrase("duplicate key value violates unique constraint", "23505"),
            new Phrase("violates foreign key constraint", "23503"),
            new Phrase("violates not-null constraint", "23502"),
            new Phrase("null value in column", "23502"),
            new Phrase("violates check constraint", "23514"),
            new Phrase("could not serialize access", "40001"),
            new Phrase("deadlock detected", "40P01"),
            new Phrase("canceling statement due to", "57014"),
            new Phrase("value too long for type", "22001"),
            new Phrase("invalid input syntax for", "22P02"),
            new Phrase("syntax error at or near", "42601"),
            new Phrase("current transaction is aborted", "25P02"),
            new Phrase("permission denied for table", "42501"),
            new Phrase("permission denied for relation", "42501"),
            new Phrase("permission denied for schema", "42501"),
            weak("permission denied for ", "42501"),
            new Phrase("password authentication failed for user", "28P01"),
            new Phrase("no pg_hba.conf entry for", "28000"),
            new Phrase("connection to server at \"", "08001"),
            new Phrase("connection to server on socket \"", "08001"),
            new Phrase("could not translate host name \"", "08001"),
            new Phrase("operator does not exist:", "42883"),
            weak("division by zero", "22012"),
            weak("cannot execute ", "25006"),
            new Phrase("does not exist", ""),
            // MySQL / MariaDB
            new Phrase("Duplicate entry '", "23505"),
            new Phrase("a foreign key constraint fails", "23503"),
            new Phrase("Cannot add or update a child row", "23503"),
            new Phrase("Cannot delete or update a parent row", "23503"),
            new Phrase("Deadlock found when trying to get lock", "40001"),
            new Phrase("Lock wait timeout exceeded", "40001"),
            new Phrase("Data too long for column", "22001"),
            new Phrase("Incorrect integer value", "22007"),
            new Phrase("You have an error in your SQL syntax", "42000"),
            new Phrase("Unknown column '", "42S22"),
            new Phrase("Unknown database '", "3D000"),
            new Phrase("Unknown server host '", "08001"),
            new Phrase("Unknown MySQL server host '", "08001"),
            new Phrase("Can't connect to", "08001"),
            new Phrase("Socket fail to connect to", "08001"),
            new Phrase("Cannot execute statement in a READ ONLY transaction", "25006"),
            led("command denied to user '", "42501", "^", false),
            led("cannot be null", "23502", "Column '", true),
            led("doesn't have a default value", "23502", "Field '", true),
            weak("CONSTRAINT `", "23514"),
            weak("Division by 0", "22012"),
            new Phrase("doesn't exist", ""),
            new Phrase("Access denied for user", "28000"),
            // SQLite
            new Phrase("UNIQUE constraint failed", "23505"),
            new Phrase("NOT NULL constraint failed", "23502"),
            new Phrase("FOREIGN KEY constraint failed", "23503"),
            new Phrase("CHECK constraint failed", "23514"),
            new Phrase("SQLITE_CONSTRAINT", "23000"),
            new Phrase("SQLITE_BUSY", "40001"),
            new Phrase("SQLITE_ERROR", ""),
            new Phrase("SQLITE_READONLY", "25006"),
            new Phrase("database is locked", "40001"),
            new Phrase("no such table:", "42P01"),
            new Phrase("no such column:", "42703"),
            new Phrase("no such function:", "42883"),
            led("has no column named", "42703", "table ", false),
            new Phrase("attempt to write a readonly database", "25006"),
            new Phrase("unable to open database", "08001"),
            weak("near \"", "42601"),
            weak("cannot store ", "22P02"),
            // SQL Server
            new Phrase("Violation of PRIMARY KEY constraint", "23505"),
            new Phrase("Violation of UNIQUE KEY constraint", "23505"),
            new Phrase("Cannot insert duplicate key", "23505"),
            led("conflicted with the FOREIGN KEY constraint", "23503", "The ", false),
            led("conflicted with the REFERENCE constraint", "23503", "The ", false),
            led("conflicted with the CHECK constraint", "23514", "The ", false),
            new Phrase("Cannot insert the value NULL into column", "23502"),
            new Phrase("was deadlocked on lock resources", "40001"),
            new Phrase("String or binary data would be truncated", "22001"),
            new Phrase("Invalid object name '", "42S02"),
            new Phrase("Invalid column name '", "42S22"),
            new Phrase("Incorrect syntax near", "42000"),
            new Phrase("Login failed for user", "28000"),
            new Phrase("Cannot open database \"", "3D000"),
            new Phrase("Divide by zero error encountered", "22012"),
            new Phrase("Conversion failed when converting", "22018"),
            new Phrase("Could not find stored procedure", "42883"),
            led("permission was denied on the object", "42501", "The ", false),
            // MongoDB, ORMs and drivers
            new Phrase("E11000 duplicate key error", "23505"),
            new Phrase("Unique constraint failed on the", "23505"),
            new Phrase("Foreign key constraint failed on the field", "23503"),
            new Phrase("SequelizeUniqueConstraintError", "23505"),
            new Phrase("SequelizeForeignKeyConstraintError", "23503"),
            new Phrase("QueryFailedError", ""),
            new Phrase("could not execute statement", ""),
            new Phrase("IntegrityError", "23000"),
            new Phrase("OperationalError", ""),
            new Phrase("ProgrammingError", ""),
            new Phrase("SQLIntegrityConstraintViolationException", "23000"),
            new Phrase("PSQLException", ""),
            new Phrase("SQLException", ""),
            new Phrase("SqlException", ""),
            new Phrase("SQLSTATE", ""),
    };

    private static final String[] SQL_STARTS = {"select", "insert", "update", "delete", "create", "drop", "alter",
            "truncate", "merge", "with", "grant", "upsert"};

    @Override
    public Category category() {
        return Category.DATABASE;
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
                int marker = markerAt(text, at, lineEnd, weak);
                if (marker >= 0 && lineStart < 0) {
                    lineStart = text.lastIndexOf('\n', at - 1) + 1;
                }
                if (marker >= 0) {
                    int start = extendBack(text, lineStart, marker);
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
                int statementEnd = statementEnd(text, at, end, noFromUntil);
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
    static final Map<String, Integer> WORD_CLASSES;

    static {
        Map<String, Integer> heads = new java.util.HashMap<>();
        for (Phrase phrase : PHRASES) {
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
        for (String verb : SQL_STARTS) {
            heads.merge(verb, VERB, (a, b) -> a | b);
        }
        WORD_CLASSES = Map.copyOf(heads);
    }

    /** Phrases bucketed by first character, so one pass over a line checks them all. */
    private static final Phrase[][] BY_FIRST_CHAR =
            Text.byFirstChar(PHRASES, Phrase::text, Phrase[]::new, new Phrase[128][]);

    /**
     * Where the database error whose marker starts at the word at {@code i} begins (its line ends
     * at {@code e}), or -1; {@code weak[0]} says whether the marker alone is not enough.
     */
    private static int markerAt(String text, int i, int e, boolean[] weak) {
        char c = text.charAt(i);
        if (c >= 128) {
            return -1;
        }
        Phrase[] bucket = BY_FIRST_CHAR[c];
        if (bucket != null) {
            char second = i + 1 < e ? text.charAt(i + 1) : 0;
            for (Phrase phrase : bucket) {
                String p = phrase.text();
                if (p.charAt(1) == second && i + p.length() <= e && text.startsWith(p, i)) {
                    boolean vague = p.equals("does not exist") || p.equals("doesn't exist");
                    if (!vague) {
                        weak[0] = phrase.weak();
                        return phrase.lead().isEmpty() ? i : lead(text, i, phrase.lead());
                    }
                    int object = dbObjectBefore(text, i, weak);
                    if (object >= 0) {
                        return object;
                    }
                }
            }
        }
        if (c == 'O' && i + 9 <= e && text.startsWith("ORA-", i) && allDigits(text, i + 4, i + 9)) {
            return i;
        }
        if (c == 'M' && text.startsWith("Msg ", i) && Text.indexOf(text, ", Level ", i, Math.min(e, i + 24)) > 0) {
            return i;
        }
        if (c == 'E' && isMysqlCode(text, i, e)) {
            return i;
        }
        return -1;
    }

    /**
     * Where a message whose marker phrase is not its first words starts: at the last {@code lead}
     * within the 120 characters before, or, for "^", at the upper-case command before the phrase.
     */
    private static int lead(String text, int at, String lead) {
        int from = at;
        while (from > 0 && at - from < 120 && text.charAt(from - 1) != '\n') {
            from--;
        }
        if (lead.equals("^")) {
            int i = at;
            while (i > from && (text.charAt(i - 1) == ' ' || Text.isUpper(text.charAt(i - 1)))) {
                i--;
            }
            while (i < at && text.charAt(i) == ' ') {
                i++;
            }
            return i;
        }
        int found = -1;
        for (int i = Text.indexOf(text, lead, from, at); i >= 0; i = Text.indexOf(text, lead, i + 1, at)) {
            found = i;
        }
        return found >= 0 ? found : at;
    }

    private static boolean isMysqlCode(String text, int at, int e) {
        if (!(text.startsWith("ERROR ", at) || text.startsWith("Error ", at))) {
            return false;
        }
        int d = at + 6;
        int j = d;
        while (j < e && Text.isDigit(text.charAt(j))) {
            j++;
        }
        return j - d == 4 && j < e && (text.charAt(j) == ':' || text.charAt(j) == ' ');
    }

    /**
     * Where the database object named before "does not exist" starts, or -1: a quoted one
     * ({@code relation "x"}, {@code Table 'x'}), or an unquoted function or column, which prose
     * also names (so only an error in a shape Warden knows: weak).
     */
    private static int dbObjectBefore(String text, int at, boolean[] weak) {
        int from = at;
        while (from > 0 && at - from < 120 && text.charAt(from - 1) != '\n') {
            from--; // within the line, and no more than 120 back
        }
        if (Text.indexOf(text, '"', from, at) >= 0 || Text.indexOf(text, '\'', from, at) >= 0) {
            for (String object : new String[] {"relation \"", "column \"", "Table '", "table \"", "database \"",
                    "schema \"", "role \"", "type \"", "sequence \"", "index \"", "table or view \""}) {
                int found = Text.indexOf(text, object, from, at);
                if (found >= 0) {
                    return found;
                }
            }
        }
        for (String object : new String[] {"function ", "FUNCTION ", "column "}) {
            int found = Text.indexOf(text, object, from, at);
            if (found >= 0) {
                weak[0] = true;
                return found;
            }
        }
        return -1;
    }

    private static int oraCode(String text, int s, int e) {
        int at = Text.indexOf(text, "ORA-", s, e);
        return at >= 0 && at + 9 <= e && allDigits(text, at + 4, at + 9) ? at : -1;
    }

    /** {@code ERROR 1062 (23000):} or {@code Error 1062:}. */
    private static int mysqlCodeAt(String text, int s, int e) {
        for (int i = s; i < e; i++) {
            if (text.charAt(i) == 'E' && isMysqlCode(text, i, e)) {
                return i;
            }
        }
        return -1;
    }

    /** Walk back over driver prefixes such as {@code psycopg2.errors.UniqueViolation: } or {@code ERROR:  }. */
    private static int extendBack(String text, int lineStart, int marker) {
        int start = marker;
        // A marker inside a dotted name (psycopg2.errors.UniqueViolation) starts at the name.
        while (start > lineStart && (Text.isWordChar(text.charAt(start - 1)) || text.charAt(start - 1) == '.'
                || text.charAt(start - 1) == '$')) {
            start--;
        }
        while (true) {
            int i = start;
            while (i > lineStart && text.charAt(i - 1) == ' ') {
                i--;
            }
            if (i == lineStart || (text.charAt(i - 1) != ':' && text.charAt(i - 1) != ']')) {
                return start;
            }
            int tokenEnd = i - 1;
            int j = tokenEnd;
            while (j > lineStart && (Text.isWordChar(text.charAt(j - 1)) || text.charAt(j - 1) == '.'
                    || text.charAt(j - 1) == '[' || text.charAt(j - 1) == '$')) {
                j--;
            }
            if (j == tokenEnd || !isDriverPrefix(text, j, tokenEnd)) {
                return start;
            }
            start = j;
        }
    }

    private static boolean isDriverPrefix(String text, int s, int e) {
        String token = text.substring(s, e);
        return token.startsWith("SQLSTATE") || token.startsWith("[") || DatabaseMessages.isDriverName(token);
    }

    private static boolean allDigits(String text, int s, int e) {
        for (int i = s; i < e; i++) {
            if (!Text.isDigit(text.charAt(i))) {
                return false;
            }
        }
        return e > s;
    }

    // ---- raw SQL ------------------------------------------------------------------------------

    /**
     * A statement starts with a SQL verb at a word boundary and must have the clause that verb
     * needs nearby ({@code SELECT … FROM}, {@code INSERT INTO}, {@code UPDATE x SET},
     * {@code DELETE FROM}, {@code CREATE TABLE}); it ends at {@code ;}, a closing quote or the end
     * of the line. Prose such as "select one option from the list" lacks SQL's shape and is left.
     */
    private static int statementEnd(String text, int start, int verbEnd, int[] noFromUntil) {
        // A bounded window keeps the scan linear however many verbs a hostile text repeats.
        int limit = Text.lineEnd(text, start, start + 600);
        boolean upper = Text.isUpper(text.charAt(start)) && Text.isUpper(text.charAt(verbEnd - 1));
        String verb = text.substring(start, verbEnd).toLowerCase(java.util.Locale.ROOT);
        boolean dml = verb.equals("select") || verb.equals("insert") || verb.equals("update") || verb.equals("delete");
        if (!upper && !dml) {
            return -1;
        }
        if (verb.equals("select")) {
            // FROM first, with the cache: a text of SELECTs without FROM costs a few characters each.
            int mode = upper ? 1 : 0;
            int searchFrom = Math.max(verbEnd, noFromUntil[mode]);
            if (searchFrom >= limit || keywordAt(text, searchFrom, limit, "from", upper) < 0) {
                noFromUntil[mode] = Math.max(noFromUntil[mode], limit - 4);
                return -1;
            }
        }
        int end = terminator(text, verbEnd, limit);
        boolean shaped = switch (verb) {
            case "select" -> selectShape(text, verbEnd, end, upper, noFromUntil);
            case "insert", "upsert" -> keyword(text, verbEnd, Math.min(end, verbEnd + 8), "into", upper)
                    && (keyword(text, verbEnd, end, "values", upper) || keyword(text, verbEnd, end, "select", upper)
                    || Text.indexOf(text, '(', verbEnd, end) > 0);
            case "update" -> keyword(text, verbEnd, end, "set", upper) && hasOperator(text, verbEnd, end);
            case "delete" -> keyword(text, verbEnd, Math.min(end, verbEnd + 8), "from", upper)
                    && (upper || keyword(text, verbEnd, end, "where", upper));
            case "create", "drop", "alter", "truncate" -> firstWordIs(text, verbEnd, end, upper, "table", "index",
                    "unique", "view", "schema", "database", "sequence", "trigger", "function", "procedure",
                    "materialized", "temporary", "temp", "extension", "type", "role", "user");
            case "merge" -> keyword(text, verbEnd, end, "into", upper) && keyword(text, verbEnd, end, "using", upper);
            case "with" -> upper && keyword(text, verbEnd, end, "as", true) && keyword(text, verbEnd, end, "select", true);
            case "grant" -> upper && keyword(text, verbEnd, end, "on", true) && keyword(text, verbEnd, end, "to", true);
            default -> false;
        };
        return shaped ? end : -1;
    }

    private static int terminator(String text, int from, int limit) {
        int depth = 0;
        for (int i = from; i < limit; i++) {
            char c = text.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                if (depth == 0) {
                    return i;
                }
                depth--;
            } else if (c == ';') {
                return i + 1;
            } else if (c == '"') {
                return i;
            }
        }
        return limit;
    }

    /**
     * Where the last search for FROM ended without finding one, per case mode. A text of many
     * SELECTs and no FROM would otherwise search the same window again for every SELECT.
     */
    /** {@code SELECT a, b FROM t}, {@code SELECT * FROM t}, {@code select x from t where …}. */
    private static boolean selectShape(String text, int verbEnd, int end, boolean upper, int[] noFromUntil) {
        int mode = upper ? 1 : 0;
        int searchFrom = Math.max(verbEnd, noFromUntil[mode]);
        int from = searchFrom >= end ? -1 : keywordAt(text, searchFrom, end, "from", upper);
        if (from < 0) {
            noFromUntil[mode] = Math.max(noFromUntil[mode], end - 4);
            return false;
        }
        if (from < 0) {
            return false;
        }
        // Between SELECT and FROM: identifiers, '*', commas, dots, quotes, functions; not a sentence.
        int words = 0;
        boolean punctuation = false;
        int i = verbEnd;
        while (i < from) {
            char c = text.charAt(i);
            if (Text.isWordChar(c)) {
                int w = i;
                while (i < from && (Text.isWordChar(text.charAt(i)) || text.charAt(i) == '.')) {
                    i++;
                }
                words++;
                if (i - w > 0 && text.charAt(w) == 'a' && i - w == 2 && text.charAt(w + 1) == 's') {
                    punctuation = true;
                }
                continue;
            }
            if (c == '*' || c == ',' || c == '(' || c == '"' || c == '.') {
                punctuation = true;
            }
            i++;
        }
        if (words == 0 && !punctuation) {
            return false;
        }
        int afterFrom = from + 4;
        boolean hasTable = afterFrom < end && Text.isSpace(text.charAt(afterFrom));
        if (!hasTable) {
            return false;
        }
        if (upper) {
            return punctuation || words <= 3;
        }
        return punctuation && (keyword(text, afterFrom, end, "where", false) || words == 0
                || Text.indexOf(text, '$', afterFrom, end) >= 0 || Text.indexOf(text, '?', afterFrom, end) >= 0
                || keyword(text, afterFrom, end, "join", false) || keyword(text, afterFrom, end, "limit", false));
    }

    private static boolean hasOperator(String text, int s, int e) {
        return Text.indexOf(text, '=', s, e) >= 0;
    }

    private static boolean firstWordIs(String text, int s, int e, boolean upper, String... words) {
        int i = s;
        while (i < e && text.charAt(i) == ' ') {
            i++;
        }
        int w = i;
        while (i < e && Text.isWordChar(text.charAt(i))) {
            i++;
        }
        if (i == w) {
            return false;
        }
        for (String word : words) {
            if (i - w == word.length() && (upper ? text.startsWith(word.toUpperCase(java.util.Locale.ROOT), w)
                    : Text.matchesIgnoreCase(text, w, word))) {
                // and something after it: "DROP TABLE users", not "drop table" alone
                return i < e - 1;
            }
        }
        return false;
    }

    private static boolean keyword(String text, int s, int e, String lowerWord, boolean upper) {
        return keywordAt(text, s, e, lowerWord, upper) >= 0;
    }

    /** A whole word, in upper case when the statement is upper case, else in any case. */
    private static int keywordAt(String text, int s, int e, String lowerWord, boolean upper) {
        int n = lowerWord.length();
        for (int i = s; i + n <= e; i++) {
            if ((i == 0 || !Text.isWordChar(text.charAt(i - 1))) && (i + n >= text.length()
                    || !Text.isWordChar(text.charAt(i + n)))) {
                boolean match = upper ? matchesUpper(text, i, lowerWord) : Text.matchesIgnoreCase(text, i, lowerWord);
                if (match) {
                    return i;
                }
            }
        }
        return -1;
    }

    private static boolean matchesUpper(String text, int at, String lowerWord) {
        for (int k = 0; k < lowerWord.length(); k++) {
            if (text.charAt(at + k) != (char) (lowerWord.charAt(k) - 32)) {
                return false;
            }
        }
        return true;
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
        int ora = oraCode(span, 0, span.length());
        if (ora >= 0) {
            Optional<String> state = DatabaseMessages.vendorState("oracle", span.substring(ora + 4, ora + 9));
            if (state.isPresent()) {
                return state;
            }
        }
        int mysql = mysqlCodeAt(span, 0, span.length());
        if (mysql >= 0) {
            Optional<String> state = DatabaseMessages.vendorState("mysql", span.substring(mysql + 6, mysql + 10));
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
            Optional<String> state = DatabaseMessages.vendorState("sqlserver", span.substring(msg + 4, j));
            if (state.isPresent()) {
                return state;
            }
        }
        for (Phrase phrase : PHRASES) {
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
