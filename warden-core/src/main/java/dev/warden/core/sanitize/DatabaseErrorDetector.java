package dev.warden.core.sanitize;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Database errors from PostgreSQL (with and without SQLSTATE), MySQL/MariaDB, SQLite, Oracle,
 * SQL Server, MongoDB and the common ORMs, and raw SQL statements. A database error is reported
 * from its driver prefix ({@code org.postgresql.util.PSQLException: ERROR:}, {@code pq:}) to the
 * end of its line plus the lines the server adds ({@code DETAIL:}, {@code HINT:}, {@code LINE 1:}):
 * that whole span names tables, columns, constraints, values and SQL, and is replaced by the safe
 * message of its SQLSTATE ({@link #sqlStateOf}).
 */
public final class DatabaseErrorDetector implements WordScanner {

    /** Message phrases, each with the SQLSTATE it implies ("" when the phrase alone does not say). */
    private static final String[][] PHRASES = {
            // PostgreSQL
            {"duplicate key value violates unique constraint", "23505"},
            {"violates foreign key constraint", "23503"},
            {"violates not-null constraint", "23502"},
            {"null value in column", "23502"},
            {"violates check constraint", "23514"},
            {"could not serialize access", "40001"},
            {"deadlock detected", "40P01"},
            {"canceling statement due to", "57014"},
            {"value too long for type", "22001"},
            {"invalid input syntax for", "22P02"},
            {"syntax error at or near", "42601"},
            {"current transaction is aborted", "25P02"},
            {"permission denied for table", "42501"},
            {"permission denied for relation", "42501"},
            {"permission denied for schema", "42501"},
            {"does not exist", ""},
            // MySQL / MariaDB
            {"Duplicate entry '", "23505"},
            {"a foreign key constraint fails", "23503"},
            {"Cannot add or update a child row", "23503"},
            {"Cannot delete or update a parent row", "23503"},
            {"Deadlock found when trying to get lock", "40001"},
            {"Lock wait timeout exceeded", "40001"},
            {"Data too long for column", "22001"},
            {"Incorrect integer value", "22007"},
            {"You have an error in your SQL syntax", "42000"},
            {"Unknown column '", "42S22"},
            {"doesn't exist", ""},
            {"Access denied for user", "28000"},
            // SQLite
            {"UNIQUE constraint failed", "23505"},
            {"NOT NULL constraint failed", "23502"},
            {"FOREIGN KEY constraint failed", "23503"},
            {"CHECK constraint failed", "23514"},
            {"SQLITE_CONSTRAINT", "23000"},
            {"SQLITE_BUSY", "40001"},
            {"database is locked", "40001"},
            {"no such table:", "42P01"},
            {"no such column:", "42703"},
            {"has no column named", "42703"},
            // SQL Server
            {"Violation of PRIMARY KEY constraint", "23505"},
            {"Violation of UNIQUE KEY constraint", "23505"},
            {"Cannot insert duplicate key", "23505"},
            {"conflicted with the FOREIGN KEY constraint", "23503"},
            {"conflicted with the REFERENCE constraint", "23503"},
            {"Cannot insert the value NULL into column", "23502"},
            {"was deadlocked on lock resources", "40001"},
            {"String or binary data would be truncated", "22001"},
            {"Invalid object name '", "42S02"},
            {"Invalid column name '", "42S22"},
            {"Incorrect syntax near", "42000"},
            {"Login failed for user", "28000"},
            // MongoDB, ORMs and drivers
            {"E11000 duplicate key error", "23505"},
            {"Unique constraint failed on the", "23505"},
            {"Foreign key constraint failed on the field", "23503"},
            {"SequelizeUniqueConstraintError", "23505"},
            {"SequelizeForeignKeyConstraintError", "23503"},
            {"QueryFailedError", ""},
            {"could not execute statement", ""},
            {"IntegrityError", "23000"},
            {"OperationalError", ""},
            {"ProgrammingError", ""},
            {"SQLIntegrityConstraintViolationException", "23000"},
            {"PSQLException", ""},
            {"SQLException", ""},
            {"SqlException", ""},
            {"SQLSTATE", ""},
    };

    /** Oracle ORA- codes and MySQL / SQL Server error numbers with the SQLSTATE they mean. */
    private static final Map<String, String> ORACLE = Map.ofEntries(
            Map.entry("00001", "23505"), Map.entry("02291", "23503"), Map.entry("02292", "23503"),
            Map.entry("01400", "23502"), Map.entry("02290", "23514"), Map.entry("00060", "40001"),
            Map.entry("08177", "40001"), Map.entry("01013", "57014"), Map.entry("12899", "22001"),
            Map.entry("01722", "22018"), Map.entry("01843", "22008"), Map.entry("12541", "08001"),
            Map.entry("12514", "08001"), Map.entry("03113", "08006"), Map.entry("00942", "42P01"),
            Map.entry("00904", "42703"), Map.entry("01017", "28000"));
    private static final Map<String, String> MYSQL = Map.ofEntries(
            Map.entry("1062", "23505"), Map.entry("1452", "23503"), Map.entry("1451", "23503"),
            Map.entry("1048", "23502"), Map.entry("3819", "23514"), Map.entry("1213", "40001"),
            Map.entry("1205", "40001"), Map.entry("1406", "22001"), Map.entry("1366", "22007"),
            Map.entry("2002", "08001"), Map.entry("2003", "08001"), Map.entry("2006", "08006"),
            Map.entry("2013", "08006"), Map.entry("1146", "42S02"), Map.entry("1054", "42S22"),
            Map.entry("1064", "42000"), Map.entry("1045", "28000"));
    private static final Map<String, String> SQL_SERVER = Map.ofEntries(
            Map.entry("2627", "23505"), Map.entry("2601", "23505"), Map.entry("547", "23503"),
            Map.entry("515", "23502"), Map.entry("1205", "40001"), Map.entry("8152", "22001"),
            Map.entry("2628", "22001"), Map.entry("208", "42S02"), Map.entry("207", "42S22"),
            Map.entry("102", "42000"), Map.entry("18456", "28000"), Map.entry("-2", "57014"));

    private static final String[] CONTINUATIONS = {"DETAIL:", "HINT:", "CONTEXT:", "STATEMENT:", "LINE ",
            "Detail:", "Hint:", "Internal Query:", "Where:", "Routine:", "File:",
            "QUERY:", "Query:", "SQL:", "Position:", "Where:", "Error Code:", "Call getNextException", "^",
            "[SQL:", "(Background on this error", "[parameters:", "Key (", "Failing row contains"};

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
                int marker = markerAt(text, at, lineEnd);
                if (marker >= 0 && lineStart < 0) {
                    lineStart = text.lastIndexOf('\n', at - 1) + 1;
                }
                if (marker >= 0) {
                    int errorEnd = errorEnd(text, lineEnd);
                    int start = extendBack(text, lineStart, marker);
                    out.add(new Finding(Category.DATABASE, "database-error", start, trimEnd(text, start, errorEnd)));
                    errorsFrom = errorEnd + 1;
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

    /** The end of an error's span: its line and the continuation lines after it. */
    private static int errorEnd(String text, int lineEnd) {
        int n = text.length();
        int end = lineEnd;
        int next = lineEnd + 1;
        while (next < n) {
            int nextEnd = Text.lineEnd(text, next);
            if (!isContinuation(text, next, nextEnd)) {
                break;
            }
            end = nextEnd;
            next = nextEnd + 1;
        }
        return end;
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
        for (String[] phrase : PHRASES) {
            String p = phrase[0];
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
    private static final String[][][] BY_FIRST_CHAR =
            Text.byFirstChar(PHRASES, phrase -> phrase[0], String[][]::new, new String[128][][]);

    /** Where the database-error marker starting at the word at {@code i} begins (its line ends at {@code e}), or -1. */
    private static int markerAt(String text, int i, int e) {
        char c = text.charAt(i);
        if (c >= 128) {
            return -1;
        }
        String[][] bucket = BY_FIRST_CHAR[c];
        if (bucket != null) {
            char second = i + 1 < e ? text.charAt(i + 1) : 0;
            for (String[] phrase : bucket) {
                String p = phrase[0];
                if (p.charAt(1) == second && i + p.length() <= e && text.startsWith(p, i)) {
                    boolean vague = p.equals("does not exist") || p.equals("doesn't exist");
                    if (!vague) {
                        return i;
                    }
                    int object = dbObjectBefore(text, i);
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

    /** Where the quoted database object named before "does not exist" starts, or -1. */
    private static int dbObjectBefore(String text, int at) {
        int from = at;
        while (from > 0 && at - from < 120 && text.charAt(from - 1) != '\n') {
            from--; // within the line, and no more than 120 back
        }

        // The object is quoted ("relation \"x\"", "Table 'x'"): no quote nearby, no object.
        if (Text.indexOf(text, '"', from, at) < 0 && Text.indexOf(text, '\'', from, at) < 0) {
            return -1;
        }
        for (String object : new String[] {"relation \"", "column \"", "Table '", "table \"", "database \"",
                "schema \"", "role \"", "type \"", "function ", "sequence \"", "index \""}) {
            int found = Text.indexOf(text, object, from, at);
            if (found >= 0) {
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
        if (token.indexOf('.') >= 0 || token.startsWith("SQLSTATE") || token.startsWith("[")) {
            return true;
        }
        return switch (token) {
            case "ERROR", "error", "Error", "FATAL", "pq", "PANIC", "sqlite3", "SqlError", "DatabaseError",
                 "QueryFailedError", "PrismaClientKnownRequestError", "SequelizeDatabaseError" -> true;
            default -> token.endsWith("Exception") || token.endsWith("Error") || token.endsWith("Violation");
        };
    }

    private static boolean isContinuation(String text, int s, int e) {
        int i = s;
        while (i < e && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        for (String c : CONTINUATIONS) {
            if (text.startsWith(c, i)) {
                return true;
            }
        }
        return false;
    }

    private static int trimEnd(String text, int s, int e) {
        while (e > s && Text.isSpace(text.charAt(e - 1))) {
            e--;
        }
        return e;
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
     * The SQLSTATE a database error span implies, from an explicit state, a vendor code or its phrase.
     * Linear in the span; the sanitizer passes only the head of a long one.
     */
    public static Optional<String> sqlStateOf(String span) {
        Optional<String> explicit = explicitState(span);
        if (explicit.isPresent()) {
            return explicit;
        }
        int ora = oraCode(span, 0, span.length());
        if (ora >= 0) {
            String state = ORACLE.get(span.substring(ora + 4, ora + 9));
            if (state != null) {
                return Optional.of(state);
            }
        }
        int mysql = mysqlCodeAt(span, 0, span.length());
        if (mysql >= 0) {
            String code = span.substring(mysql + 6, mysql + 10);
            if (MYSQL.containsKey(code)) {
                return Optional.of(MYSQL.get(code));
            }
        }
        int msg = span.indexOf("Msg ");
        if (msg >= 0) {
            int j = msg + 4;
            while (j < span.length() && (Text.isDigit(span.charAt(j)) || span.charAt(j) == '-')) {
                j++;
            }
            String state = SQL_SERVER.get(span.substring(msg + 4, j));
            if (state != null) {
                return Optional.of(state);
            }
        }
        for (String[] phrase : PHRASES) {
            if (!phrase[1].isEmpty() && span.contains(phrase[0])) {
                return Optional.of(phrase[1]);
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
