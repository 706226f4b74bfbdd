package dev.warden.core.sanitize;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads one database error where {@link DatabaseErrorDetector} found it: the driver's and server's
 * prefixes ({@code org.postgresql.util.PSQLException: ERROR:}, {@code (1054, "}, {@code ORA-00942:},
 * {@code Msg 208, Level 16, State 1, Line 1}), the message, matched against the shapes the servers
 * write ({@link DatabaseTemplates}), and the lines the server adds ({@code DETAIL:}, {@code HINT:},
 * {@code LINE 1:} and its caret, {@code Position:}).
 *
 * <p>A message of a known shape is kept, with findings over exactly each name, value and echo in it
 * (the sanitizer keeps the caller's own and redacts the rest) and over the prefix (removed: the
 * same message reads the same whatever the driver). A message of no known shape is one finding
 * over the whole error, replaced by the safe message of its SQLSTATE, as nothing in it can be told
 * apart. Linear: each line of the error is read a bounded number of times (once per shape, and the
 * shapes are a fixed few), and a line longer than {@value #MAX_MESSAGE_CHARS} is not read at all.
 */
final class DatabaseMessages {

    /** A kept message: marks the error (for its SQLSTATE), is not itself replaced. */
    static final String MESSAGE = "database-message";
    /** An error of no known shape: replaced whole by the safe message of its SQLSTATE. */
    static final String ERROR = "database-error";
    /** The driver's and server's prefix of a kept message: removed. */
    static final String PREFIX = "database-prefix";
    /** What an added line says beyond the shapes Warden knows, and fixed-words slots that were not. */
    static final String DETAIL = "database-detail";

    static final int MAX_MESSAGE_CHARS = 2048;

    /** A kept message's mark or prefix: the error's structure, never a text the caller owns. */
    static boolean structural(Finding f) {
        return f.kind().equals(MESSAGE) || f.kind().equals(PREFIX);
    }

    private DatabaseMessages() {
    }

    /** Where the message starts after the prefixes, on which line, and what the prefixes said. */
    private record Header(int messageStart, int lineEnd, char tupleQuote, String vendorState) {
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
            Header line = header(text, lineStart, lineEnd);
            if (line != null && line.messageStart() > lineStart && line.lineEnd() == lineEnd) {
                from = lineStart;
            }
        }
        return readFrom(text, from, lineEnd, out, weak);
    }

    private static int readFrom(String text, int start, int lineEnd, List<Finding> out, boolean weak) {
        Header header = header(text, start, lineEnd);
        List<Finding> found = new ArrayList<>();
        DatabaseTemplates.Template template = null;
        if (header != null && header.lineEnd() - header.messageStart() <= MAX_MESSAGE_CHARS) {
            int messageEnd = messageEnd(text, header.messageStart(), header.lineEnd(), header.tupleQuote());
            template = match(DatabaseTemplates.MESSAGES, text, header.messageStart(), messageEnd, found);
        }
        if (template == null) {
            if (weak) {
                return -1; // a phrase that is a database error only in a known shape
            }
            int end = trimEnd(text, start, fallbackEnd(text, header == null ? lineEnd : header.lineEnd()));
            out.add(new Finding(Category.DATABASE, ERROR, start, end));
            return end;
        }
        int end = addedLines(text, header.lineEnd(), found);
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
        Header header = header(span, 0, lineEnd);
        if (header == null) {
            return Optional.empty();
        }
        if (header.lineEnd() - header.messageStart() <= MAX_MESSAGE_CHARS) {
            int messageEnd = messageEnd(span, header.messageStart(), header.lineEnd(), header.tupleQuote());
            DatabaseTemplates.Template t = match(DatabaseTemplates.MESSAGES, span, header.messageStart(), messageEnd,
                    new ArrayList<>());
            if (t != null) {
                return Optional.of(t.state());
            }
        }
        return Optional.ofNullable(header.vendorState());
    }

    // ---- prefixes ---------------------------------------------------------------------------

    private static final Map<String, String> ORACLE = Map.ofEntries(
            Map.entry("00001", "23505"), Map.entry("02291", "23503"), Map.entry("02292", "23503"),
            Map.entry("01400", "23502"), Map.entry("02290", "23514"), Map.entry("00060", "40001"),
            Map.entry("08177", "40001"), Map.entry("01013", "57014"), Map.entry("12899", "22001"),
            Map.entry("01722", "22018"), Map.entry("01843", "22008"), Map.entry("12541", "08001"),
            Map.entry("12514", "08001"), Map.entry("12154", "08001"), Map.entry("03113", "08006"),
            Map.entry("00942", "42P01"), Map.entry("00904", "42703"), Map.entry("01017", "28000"),
            Map.entry("01031", "42501"), Map.entry("01476", "22012"), Map.entry("00900", "42601"),
            Map.entry("00923", "42601"), Map.entry("00933", "42601"), Map.entry("00936", "42601"),
            Map.entry("00907", "42601"), Map.entry("16000", "25006"));
    private static final Map<String, String> MYSQL = Map.ofEntries(
            Map.entry("1062", "23505"), Map.entry("1452", "23503"), Map.entry("1451", "23503"),
            Map.entry("1048", "23502"), Map.entry("1364", "23502"), Map.entry("3819", "23514"),
            Map.entry("4025", "23514"), Map.entry("1213", "40001"), Map.entry("1205", "40001"),
            Map.entry("1406", "22001"), Map.entry("1264", "22003"), Map.entry("1365", "22012"),
            Map.entry("1366", "22007"), Map.entry("2002", "08001"), Map.entry("2003", "08001"),
            Map.entry("2005", "08001"), Map.entry("2006", "08006"), Map.entry("2013", "08006"),
            Map.entry("1040", "08004"), Map.entry("1146", "42P01"), Map.entry("1054", "42703"),
            Map.entry("1305", "42883"), Map.entry("1064", "42601"), Map.entry("1045", "28000"),
            Map.entry("1044", "42501"), Map.entry("1142", "42501"), Map.entry("1143", "42501"),
            Map.entry("1049", "3D000"), Map.entry("1792", "25006"));
    private static final Map<String, String> SQL_SERVER = Map.ofEntries(
            Map.entry("2627", "23505"), Map.entry("2601", "23505"), Map.entry("547", "23503"),
            Map.entry("515", "23502"), Map.entry("1205", "40001"), Map.entry("8152", "22001"),
            Map.entry("2628", "22001"), Map.entry("208", "42P01"), Map.entry("207", "42703"),
            Map.entry("102", "42601"), Map.entry("156", "42601"), Map.entry("18456", "28000"),
            Map.entry("4060", "3D000"), Map.entry("229", "42501"), Map.entry("8134", "22012"),
            Map.entry("245", "22018"), Map.entry("195", "42883"), Map.entry("2812", "42883"),
            Map.entry("3906", "25006"), Map.entry("-2", "57014"));

    /** The vendor code tables, for the detector's fallback reading of a span of no known shape. */
    static Optional<String> vendorState(String table, String code) {
        Map<String, String> map = switch (table) {
            case "oracle" -> ORACLE;
            case "mysql" -> MYSQL;
            default -> SQL_SERVER;
        };
        return Optional.ofNullable(map.get(code));
    }

    /**
     * Walks the prefixes from {@code start}: driver exception names, severities, vendor codes,
     * stated SQLSTATEs, PyMySQL's and pyodbc's tuples, ODBC's bracketed tags, libpq's connection
     * prefix, SQL Server's {@code Msg} header (whose message is on the next line). Null when the
     * header is malformed (a {@code Msg} line that is not one).
     */
    private static Header header(String text, int start, int lineEnd) {
        int p = start;
        int end = lineEnd;
        // What is looked for ahead is looked for within a bounded window, so a long line of markers
        // costs each one a bounded read (a message longer than this is not read anyway).
        int limit = Math.min(lineEnd, start + MAX_MESSAGE_CHARS);
        char quote = 0;
        String state = null;
        for (int guard = 0; guard < 16; guard++) {
            while (p < end && text.charAt(p) == ' ') {
                p++;
            }
            if (p >= end) {
                break;
            }
            int before = p;
            if (Text.matches(text, p, "Caused by: ")) {
                p += 11;
            } else if (Text.matches(text, p, "ORA-") && digitsAt(text, p + 4, end) == 5 && Text.matches(text, p + 9, ": ")) {
                state = first(state, ORACLE.get(text.substring(p + 4, p + 9)));
                p += 11;
            } else if (Text.matches(text, p, "Msg ") && digitsOrMinus(text, p + 4, end) > 0) {
                int codeEnd = p + 4 + digitsOrMinus(text, p + 4, end);
                int line = Text.indexOf(text, ", Line ", codeEnd, Math.min(end, codeEnd + 120));
                if (!Text.matches(text, codeEnd, ", Level ") || line < 0) {
                    return null;
                }
                state = first(state, SQL_SERVER.get(text.substring(p + 4, codeEnd)));
                int after = line + 7 + digitsAt(text, line + 7, end);
                if (after >= end) {
                    if (end >= text.length()) {
                        return null;
                    }
                    p = end + 1;
                    end = Text.lineEnd(text, p);
                } else if (Text.matches(text, after, ": ")) {
                    p = after + 2;
                } else {
                    return null;
                }
            } else if ((Text.matches(text, p, "ERROR ") || Text.matches(text, p, "Error ")) && digitsAt(text, p + 6, end) >= 4) {
                int d = digitsAt(text, p + 6, end);
                int i = p + 6 + d;
                String code = text.substring(p + 6, i);
                if (Text.matches(text, i, " (") && i + 8 <= end && text.charAt(i + 7) == ')') {
                    i += 8;
                }
                if (Text.matches(text, i, " at line ")) {
                    i += 9 + digitsAt(text, i + 9, end);
                }
                if (!Text.matches(text, i, ": ")) {
                    break;
                }
                state = first(state, MYSQL.get(code));
                p = i + 2;
            } else if (text.charAt(p) == '(' && digitsAt(text, p + 1, end) >= 4
                    && Text.matches(text, p + 1 + digitsAt(text, p + 1, end), ", ")) {
                // PyMySQL / mysqlclient: (1054, "Unknown column …")
                int i = p + 1 + digitsAt(text, p + 1, end);
                if (i + 2 >= end || (text.charAt(i + 2) != '"' && text.charAt(i + 2) != '\'')) {
                    break;
                }
                state = first(state, MYSQL.get(text.substring(p + 1, i)));
                quote = text.charAt(i + 2);
                p = i + 3;
            } else if (Text.matches(text, p, "('") && p + 12 <= end && Text.matches(text, p + 7, "', ")
                    && (text.charAt(p + 10) == '"' || text.charAt(p + 10) == '\'')) {
                // pyodbc: ('42S02', "[42S02] [Microsoft]…")
                state = first(state, text.substring(p + 2, p + 7));
                quote = text.charAt(p + 10);
                p += 11;
            } else if (Text.matches(text, p, "SQLSTATE[") && p + 17 <= end && Text.matches(text, p + 14, "] [")) {
                // PDO's connection errors: SQLSTATE[08006] [7] connection to server at …
                int d = digitsAt(text, p + 17, end);
                if (d == 0 || !Text.matches(text, p + 17 + d, "] ")) {
                    break;
                }
                state = first(state, MYSQL.get(text.substring(p + 17, p + 17 + d)));
                state = first(state, text.substring(p + 9, p + 14).startsWith("HY") ? null : text.substring(p + 9, p + 14));
                p += 19 + d;
            } else if (Text.matches(text, p, "SQLSTATE[") && p + 16 <= end && Text.matches(text, p + 14, "]: ")) {
                // PDO: SQLSTATE[42S22]: Column not found: 1054 Unknown column …
                state = first(state, text.substring(p + 9, p + 14));
                int i = p + 17;
                int colon = Text.indexOf(text, ": ", i, Math.min(end, i + 60));
                if (colon > 0 && classText(text, i, colon)) {
                    i = colon + 2;
                    int d = digitsAt(text, i, end);
                    if (d > 0 && Text.matches(text, i + d, " ")) {
                        i += d + 1;
                    }
                }
                p = i;
            } else if (text.charAt(p) == '[') {
                // ODBC's component tags and pyodbc's [42S02]: [Microsoft][ODBC Driver 18 for SQL Server][SQL Server]
                int close = Text.indexOf(text, ']', p, Math.min(end, p + 80));
                if (close < 0) {
                    break;
                }
                p = close + 1;
            } else if (Text.matches(text, p, "(conn=") || Text.matches(text, p, "(conn:")) {
                int close = Text.indexOf(text, ')', p, Math.min(end, p + 80));
                if (close < 0) {
                    break;
                }
                p = close + 1;
            } else if (Text.matches(text, p, "Parse error: ") || Text.matches(text, p, "Runtime error: ")) {
                p = text.indexOf(':', p) + 2;
            } else if (Text.matches(text, p, "in prepare, ") || Text.matches(text, p, "stepping, ")) {
                p = text.indexOf(',', p) + 2; // the sqlite3 shell: "Error: in prepare, …"
            } else {
                int connection = prefixTemplate(text, p, Math.min(end, Math.max(limit, p + 256)));
                if (connection > p) {
                    state = first(state, "08001");
                    p = connection;
                } else {
                    int token = driverToken(text, p, end);
                    if (token <= p) {
                        break;
                    }
                    p = token;
                }
            }
            if (p == before) {
                break;
            }
        }
        return new Header(Math.min(p, end), end, quote, state);
    }

    private static String first(String current, String candidate) {
        return current != null ? current : candidate;
    }

    /**
     * A driver's exception name or a severity and its colon ({@code psycopg2.errors.UndefinedColumn: },
     * {@code FATAL:  }, {@code SqliteError: }, {@code Microsoft.Data.SqlClient.SqlException (0x80131904): }):
     * where what follows starts, or {@code at} when there is none.
     */
    private static int driverToken(String text, int at, int end) {
        int i = at;
        while (i < end && (Text.isWordChar(text.charAt(i)) || text.charAt(i) == '.' || text.charAt(i) == '$')) {
            i++;
        }
        if (i == at) {
            return at;
        }
        int tokenEnd = i;
        if (Text.matches(text, i, " (0x")) {
            int close = Text.indexOf(text, ')', i, Math.min(end, i + 16));
            if (close < 0) {
                return at;
            }
            i = close + 1;
        }
        if (i >= end || text.charAt(i) != ':' || (i + 1 < end && text.charAt(i + 1) != ' ')) {
            return at;
        }
        if (!isDriverName(text.substring(at, tokenEnd))) {
            return at;
        }
        return i + 1;
    }

    static boolean isDriverName(String token) {
        if (token.indexOf('.') >= 0 || token.startsWith("SQLITE_")) {
            return true;
        }
        return switch (token) {
            case "ERROR", "error", "Error", "FATAL", "PANIC", "WARNING", "pq", "psql", "sqlite3", "SqlError",
                 "DatabaseError", "QueryFailedError", "PrismaClientKnownRequestError", "SequelizeDatabaseError",
                 "SQLSTATE" -> true;
            default -> token.endsWith("Exception") || token.endsWith("Error") || token.endsWith("Violation");
        };
    }

    private static int prefixTemplate(String text, int at, int end) {
        for (DatabaseTemplates.Template t : DatabaseTemplates.CONNECTION_PREFIXES) {
            int reached = matchFrom(t, text, at, end, new ArrayList<>(), false);
            if (reached > 0) {
                return reached;
            }
        }
        return -1;
    }

    // ---- the message --------------------------------------------------------------------------

    /**
     * Where the message proper ends: before the closing quote and parenthesis of a tuple it came
     * in, and before what drivers append — {@code (SQLSTATE 42703)}, {@code (19)}, {@code (208)
     * (SQLExecDirectW)}, {@code at character 15} — which stays as it is.
     */
    private static int messageEnd(String text, int s, int lineEnd, char tupleQuote) {
        int e = trimEnd(text, s, lineEnd);
        if (tupleQuote != 0 && e - 2 >= s && text.charAt(e - 1) == ')' && text.charAt(e - 2) == tupleQuote) {
            e -= 2;
        }
        for (int guard = 0; guard < 4; guard++) {
            e = trimEnd(text, s, e);
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
        return trimEnd(text, s, e);
    }

    private static boolean appended(String text, int s, int e) {
        if (digitsOrMinus(text, s, e) == e - s && e > s) {
            return true;
        }
        if (Text.matches(text, s, "SQLSTATE ") && e - s == 14) {
            return true;
        }
        return Text.matches(text, s, "SQL") && letters(text, s, e) && text.substring(s, e).indexOf(' ') < 0;
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
    private static int matchFrom(DatabaseTemplates.Template t, String text, int s, int e, List<Finding> out,
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
                add(out, DETAIL, text, s, e);
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
    private static void add(List<Finding> out, String kind, String text, int s, int e) {
        boolean unquote = !kind.equals(DETAIL);
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

    // ---- the lines the server adds --------------------------------------------------------------

    /**
     * The lines after the message that belong to it, read each as what it is. Returns the end of
     * the last one (or of the message line when none follows).
     */
    private static int addedLines(String text, int lineEnd, List<Finding> out) {
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
            int d = digitsAt(text, i + 5, e);
            if (d > 0 && Text.matches(text, i + 5 + d, ": ")) {
                int from = i + 7 + d;
                if (from < e) {
                    slot(DatabaseSlot.QUERY, text, from, e, out);
                }
                return true;
            }
            return false;
        }
        if (Text.matches(text, i, "Position: ") || Text.matches(text, i, "POSITION: ")) {
            int from = i + 10;
            if (digitsAt(text, from, e) != trimEnd(text, from, e) - from) {
                add(out, DETAIL, text, from, e);
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
                add(out, DETAIL, text, i + other.length(), e);
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
                slot(DatabaseSlot.QUERY, text, i, e, out);
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

    /** A DETAIL or HINT: its known shape with its slots, else all of it after the label. */
    private static void labelled(List<DatabaseTemplates.Template> shapes, String text, int s, int e, List<Finding> out) {
        int from = s;
        while (from < e && text.charAt(from) == ' ') {
            from++;
        }
        int end = trimEnd(text, from, e);
        if (end - from > MAX_MESSAGE_CHARS || match(shapes, text, from, end, out) == null) {
            add(out, DETAIL, text, from, end);
        }
    }

    /** A caret line: {@code ^} under the place of a syntax error (psql), or {@code ^--- error here} (sqlite3). */
    private static boolean caret(String text, int i, int e) {
        if (text.charAt(i) != '^') {
            return false;
        }
        int end = trimEnd(text, i, e);
        return end == i + 1 || (end - i == 15 && Text.matches(text, i, "^--- error here"));
    }

    /** The old end of an error of no known shape: its line and the continuation lines after it. */
    private static int fallbackEnd(String text, int lineEnd) {
        List<Finding> ignored = new ArrayList<>();
        return addedLines(text, lineEnd, ignored);
    }

    // ---- characters -----------------------------------------------------------------------------

    private static int digitsAt(String text, int s, int e) {
        int i = s;
        while (i < e && i < text.length() && Text.isDigit(text.charAt(i))) {
            i++;
        }
        return i - s;
    }

    private static int digitsOrMinus(String text, int s, int e) {
        int i = s;
        if (i < e && i < text.length() && text.charAt(i) == '-') {
            i++;
        }
        int d = digitsAt(text, i, e);
        return d == 0 ? 0 : i + d - s;
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

    /** PDO's name of a SQLSTATE class: "Column not found", "String data, right truncated". */
    private static boolean classText(String text, int s, int e) {
        for (int i = s; i < e; i++) {
            char c = text.charAt(i);
            if (!(Text.isUpper(c) || Text.isLower(c) || c == ' ' || c == ',' || c == '-')) {
                return false;
            }
        }
        return e > s;
    }

    private static int trimEnd(String text, int s, int e) {
        while (e > s && Text.isSpace(text.charAt(e - 1))) {
            e--;
        }
        return e;
    }
}
