package dev.warden.core.sanitize.database;

import dev.warden.core.sanitize.scan.Text;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The prefixes before a database error's message: driver exception names and severities
 * ({@code org.postgresql.util.PSQLException: ERROR:}), vendor codes ({@code ORA-00942:},
 * {@code ERROR 1054 (42S22):}, {@code Msg 208, Level 16, State 1, Line 1}) and the SQLSTATE each
 * implies, stated SQLSTATEs, PyMySQL's and pyodbc's tuples, ODBC's bracketed tags and libpq's
 * connection prefix. {@link DatabaseMessages} removes them from a kept message; what they say
 * decides the code of one of no known shape.
 */
final class DatabasePrefixes {

    private DatabasePrefixes() {
    }

    /** Where the message starts after the prefixes, on which line, and what the prefixes said. */
    record Header(int messageStart, int lineEnd, char tupleQuote, String vendorState) {
    }

    /**
     * Per SQLSTATE, the vendor codes that mean it (- for none): Oracle's {@code ORA-} numbers, MySQL's
     * and MariaDB's error numbers, SQL Server's {@code Msg} numbers.
     */
    private static final String VENDOR_CODES = """
            SQLSTATE  Oracle                         MySQL           SQL Server
            23505     00001                          1062            2627 2601
            23503     02291 02292                    1452 1451       547
            23502     01400                          1048 1364       515
            23514     02290                          3819 4025       -
            40001     00060 08177                    1213 1205       1205
            57014     01013                          -               -2
            22001     12899                          1406            8152 2628
            22018     01722                          -               245
            22008     01843                          -               -
            08001     12541 12514 12154              2002 2003 2005  -
            08006     03113                          2006 2013       -
            42P01     00942                          1146            208
            42703     00904                          1054            207
            28000     01017                          1045            18456
            42501     01031                          1044 1142 1143  229
            22012     01476                          1365            8134
            42601     00900 00923 00933 00936 00907  1064            102 156
            25006     16000                          1792            3906
            22003     -                              1264            -
            22007     -                              1366            -
            08004     -                              1040            -
            42883     -                              1305            195 2812
            3D000     -                              1049            4060
            """;
    private static final Map<String, String> ORACLE = vendorColumn(1);
    private static final Map<String, String> MYSQL = vendorColumn(2);
    private static final Map<String, String> SQL_SERVER = vendorColumn(3);

    /**
     * One vendor's column of {@link #VENDOR_CODES} (columns stand two spaces or more apart): each of its
     * codes to the SQLSTATE of its row.
     */
    private static Map<String, String> vendorColumn(int column) {
        Map<String, String> states = new HashMap<>();
        for (String row : VENDOR_CODES.lines().skip(1).toList()) {
            String[] cells = row.split(" {2,}");
            for (String code : cells[column].split(" ")) {
                if (!code.equals("-") && states.put(code, cells[0]) != null) {
                    throw new IllegalStateException("vendor code " + code + " twice in column " + column);
                }
            }
        }
        return Map.copyOf(states);
    }

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
    static Header header(String text, int start, int lineEnd) {
        int p = start;
        int end = lineEnd;
        // What is looked for ahead is looked for within a bounded window, so a long line of markers
        // costs each one a bounded read (a message longer than this is not read anyway).
        int limit = Math.min(lineEnd, start + DatabaseMessages.MAX_MESSAGE_CHARS);
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
            } else if (Text.matches(text, p, "ORA-") && Text.digitsAt(text, p + 4, end) == 5 && Text.matches(text, p + 9, ": ")) {
                state = first(state, ORACLE.get(text.substring(p + 4, p + 9)));
                p += 11;
            } else if (Text.matches(text, p, "Msg ") && Text.digitsOrMinus(text, p + 4, end) > 0) {
                int codeEnd = p + 4 + Text.digitsOrMinus(text, p + 4, end);
                int line = Text.indexOf(text, ", Line ", codeEnd, Math.min(end, codeEnd + 120));
                if (!Text.matches(text, codeEnd, ", Level ") || line < 0) {
                    return null;
                }
                state = first(state, SQL_SERVER.get(text.substring(p + 4, codeEnd)));
                int after = line + 7 + Text.digitsAt(text, line + 7, end);
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
            } else if ((Text.matches(text, p, "ERROR ") || Text.matches(text, p, "Error ")) && Text.digitsAt(text, p + 6, end) >= 4) {
                int d = Text.digitsAt(text, p + 6, end);
                int i = p + 6 + d;
                String code = text.substring(p + 6, i);
                if (Text.matches(text, i, " (") && i + 8 <= end && text.charAt(i + 7) == ')') {
                    i += 8;
                }
                if (Text.matches(text, i, " at line ")) {
                    i += 9 + Text.digitsAt(text, i + 9, end);
                }
                if (!Text.matches(text, i, ": ")) {
                    break;
                }
                state = first(state, MYSQL.get(code));
                p = i + 2;
            } else if (text.charAt(p) == '(' && Text.digitsAt(text, p + 1, end) >= 4
                    && Text.matches(text, p + 1 + Text.digitsAt(text, p + 1, end), ", ")) {
                // PyMySQL / mysqlclient: (1054, "Unknown column …")
                int i = p + 1 + Text.digitsAt(text, p + 1, end);
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
                int d = Text.digitsAt(text, p + 17, end);
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
                    int d = Text.digitsAt(text, i, end);
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
            int reached = DatabaseTemplateMatcher.matchFrom(t, text, at, end, new ArrayList<>(), false);
            if (reached > 0) {
                return reached;
            }
        }
        return -1;
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
}
