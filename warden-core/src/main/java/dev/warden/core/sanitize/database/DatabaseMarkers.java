package dev.warden.core.sanitize.database;

import dev.warden.core.sanitize.scan.Text;

/**
 * What marks a database error in text: the phrases and codes of the servers' messages
 * ({@code duplicate key value violates}, {@code ORA-00942}, {@code Msg 208, Level 16},
 * {@code ERROR 1062}), each with the SQLSTATE it implies, where the message starts when the phrase
 * is not its first words, and the driver prefixes an error is walked back over.
 */
final class DatabaseMarkers {

    private DatabaseMarkers() {
    }

    /**
     * A marker phrase: the SQLSTATE it implies ("" when it alone does not say), where the message
     * starts when the phrase is not its start ({@code lead}, looked for back on the line; "^" for
     * the upper-case command before it), and whether it is {@code weak}: words prose also uses,
     * so an error only in a shape Warden knows.
     */
    record Phrase(String text, String state, String lead, boolean weak, String database) {
        Phrase(String text, String state) {
            this(text, state, "", false, "");
        }

        Phrase(String text, String state, String lead, boolean weak) {
            this(text, state, lead, weak, "");
        }
    }

    /**
     * A phrase only a statement whose syntax broke draws, with the database that writes it: the
     * audit's SQL canaries read these ({@link dev.warden.core.sanitize.SqlSyntaxErrors}), the sanitizer all phrases alike.
     */
    private static Phrase syntax(String database, String text, String state) {
        return new Phrase(text, state, "", false, database);
    }

    private static Phrase weak(String text, String state) {
        return new Phrase(text, state, "", true);
    }

    private static Phrase led(String text, String state, String lead, boolean weak) {
        return new Phrase(text, state, lead, weak);
    }

    static final Phrase[] PHRASES = {
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
            syntax("PostgreSQL", "syntax error at or near", "42601"),
            syntax("PostgreSQL", "unterminated quoted string at or near", "42601"),
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
            syntax("MySQL/MariaDB", "You have an error in your SQL syntax", "42000"),
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
            syntax("SQLite", "unrecognized token:", "42601"),
            syntax("SQLite", "\": syntax error", "42601"),
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
            syntax("SQL Server", "Incorrect syntax near", "42000"),
            syntax("SQL Server", "Unclosed quotation mark after the character string", "42000"),
            new Phrase("Login failed for user", "28000"),
            new Phrase("Cannot open database \"", "3D000"),
            new Phrase("Divide by zero error encountered", "22012"),
            new Phrase("Conversion failed when converting", "22018"),
            new Phrase("Could not find stored procedure", "42883"),
            led("permission was denied on the object", "42501", "The ", false),
            // H2, Oracle and JDBC: a statement's syntax
            syntax("H2", "Syntax error in SQL statement", "42000"),
            syntax("Oracle", "quoted string not properly terminated", "42000"),
            syntax("JDBC", "SQLSyntaxErrorException", "42000"),
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

    /** Phrases bucketed by first character, so one pass over a line checks them all. */
    private static final Phrase[][] BY_FIRST_CHAR =
            Text.byFirstChar(PHRASES, Phrase::text, Phrase[]::new, new Phrase[128][]);

    /**
     * Where the database error whose marker starts at the word at {@code i} begins (its line ends
     * at {@code e}), or -1; {@code weak[0]} says whether the marker alone is not enough.
     */
    static int markerAt(String text, int i, int e, boolean[] weak) {
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

    static int oraCode(String text, int s, int e) {
        int at = Text.indexOf(text, "ORA-", s, e);
        return at >= 0 && at + 9 <= e && allDigits(text, at + 4, at + 9) ? at : -1;
    }

    /** {@code ERROR 1062 (23000):} or {@code Error 1062:}. */
    static int mysqlCodeAt(String text, int s, int e) {
        for (int i = s; i < e; i++) {
            if (text.charAt(i) == 'E' && isMysqlCode(text, i, e)) {
                return i;
            }
        }
        return -1;
    }

    /** Walk back over driver prefixes such as {@code psycopg2.errors.UniqueViolation: } or {@code ERROR:  }. */
    static int extendBack(String text, int lineStart, int marker) {
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
        return token.startsWith("SQLSTATE") || token.startsWith("[") || DatabasePrefixes.isDriverName(token);
    }

    private static boolean allDigits(String text, int s, int e) {
        for (int i = s; i < e; i++) {
            if (!Text.isDigit(text.charAt(i))) {
                return false;
            }
        }
        return e > s;
    }
}
