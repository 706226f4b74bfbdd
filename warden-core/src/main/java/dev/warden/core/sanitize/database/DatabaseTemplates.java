package dev.warden.core.sanitize.database;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The message shapes Warden understands, from PostgreSQL, MySQL/MariaDB, SQLite, SQL Server and
 * Oracle, each with the SQLSTATE it means. A shape is the server's fixed words with slots
 * ({@link DatabaseSlot}) where its names, values and echoes go: every character of a matched
 * message is either the server's fixed words or inside a slot, so nothing unknown is kept. A
 * message of no known shape falls back to the safe message of its SQLSTATE.
 *
 * <p>The texts were taken from messages real servers and drivers printed (see
 * {@code src/test/resources/database-errors}) and, for SQL Server and Oracle, from their error
 * reference documentation.
 */
final class DatabaseTemplates {

    private DatabaseTemplates() {
    }

    /** One shape: literal parts and slots, alternating as written; the SQLSTATE it means. */
    record Template(String state, List<Object> parts, int literalChars) {
    }

    /** The message itself (after the driver's and server's prefixes). */
    static final List<Template> MESSAGES = compile(
            // ---- PostgreSQL (server messages; libpq, JDBC, psycopg2, node pg print them alike) ----
            "42601|syntax error at or near \"{query}\"",
            "42601|syntax error at end of input",
            "42601|unterminated quoted string at or near \"{query}\"",
            "42601|unterminated quoted identifier at or near \"{query}\"",
            "42703|column \"{column}\" does not exist",
            "42703|column \"{column}\" of relation \"{table}\" does not exist",
            "42703|column {qcolumn} does not exist",
            "42702|column reference \"{column}\" is ambiguous",
            "42P01|relation \"{qtable}\" does not exist",
            "42P01|missing FROM-clause entry for table \"{table}\"",
            "42883|function {qfunction}({types}) does not exist",
            "42883|function {qfunction}() does not exist",
            "42883|operator does not exist: {types}",
            "42704|type \"{type}\" does not exist",
            "42704|role \"{user}\" does not exist",
            "3F000|schema \"{schema}\" does not exist",
            "3D000|database \"{database}\" does not exist",
            "23502|null value in column \"{column}\" of relation \"{table}\" violates not-null constraint",
            "23502|null value in column \"{column}\" violates not-null constraint",
            "23505|duplicate key value violates unique constraint \"{constraint}\"",
            "23503|insert or update on table \"{table}\" violates foreign key constraint \"{constraint}\"",
            "23503|update or delete on table \"{table}\" violates foreign key constraint \"{constraint}\" on table \"{table}\"",
            "23514|new row for relation \"{table}\" violates check constraint \"{constraint}\"",
            "23514|check constraint \"{constraint}\" of relation \"{table}\" is violated by some row",
            "23P01|conflicting key value violates exclusion constraint \"{constraint}\"",
            "22001|value too long for type {types}",
            "22012|division by zero",
            "22P02|invalid input syntax for type {types}: \"{value}\"",
            "22P02|invalid input syntax for type {types}",
            "22P02|invalid input value for enum {type}: \"{value}\"",
            "22003|value \"{value}\" is out of range for type {types}",
            "22003|integer out of range",
            "22003|bigint out of range",
            "22003|smallint out of range",
            "22003|numeric field overflow",
            "22008|date/time field value out of range: \"{value}\"",
            "22007|invalid input syntax for type {types}: \"{value}\"",
            "22023|invalid parameter value",
            "25006|cannot execute {command} in a read-only transaction",
            "25P02|current transaction is aborted, commands ignored until end of transaction block",
            "42501|permission denied for table {qtable}",
            "42501|permission denied for relation {qtable}",
            "42501|permission denied for view {qtable}",
            "42501|permission denied for sequence {qtable}",
            "42501|permission denied for schema {schema}",
            "42501|permission denied for function {qfunction}",
            "42501|permission denied for database {database}",
            "42501|must be owner of table {qtable}",
            "28P01|password authentication failed for user \"{user}\"",
            "28000|role \"{user}\" is not permitted to log in",
            "28000|no pg_hba.conf entry for host \"{host}\", user \"{user}\", database \"{database}\", {words}",
            "28000|no pg_hba.conf entry for host \"{host}\", user \"{user}\", database \"{database}\"",
            "57014|canceling statement due to statement timeout",
            "57014|canceling statement due to user request",
            "55P03|canceling statement due to lock timeout",
            "55P03|could not obtain lock on row in relation \"{qtable}\"",
            "40P01|deadlock detected",
            "40001|could not serialize access due to concurrent update",
            "40001|could not serialize access due to read/write dependencies among transactions",
            "57P03|the database system is starting up",
            "57P03|the database system is shutting down",
            "53300|sorry, too many clients already",
            "08001|Connection refused",
            "08001|timeout expired",
            "08006|server closed the connection unexpectedly",
            "08001|could not translate host name \"{host}\" to address: {words}",
            // PostgreSQL JDBC's own messages
            "08001|Connection to {host}:{port} refused. Check that the hostname and port are correct and that the postmaster is accepting TCP/IP connections.",
            "08001|The connection attempt failed.",
            "08003|This connection has been closed.",
            "42703|The column name {column} was not found in this ResultSet.",
            // ---- MySQL / MariaDB ----
            "42601|You have an error in your SQL syntax; check the manual that corresponds to your {words} server version for the right syntax to use near '{query}' at line {n}",
            "42601|You have an error in your SQL syntax; check the manual that corresponds to your {words} server version for the right syntax to use near '' at line {n}",
            "42703|Unknown column '{qcolumn}' in '{clause}'",
            "42P01|Table '{qtable}' doesn't exist",
            "42883|FUNCTION {qfunction} does not exist",
            "23502|Column '{column}' cannot be null",
            "23502|Field '{column}' doesn't have a default value",
            "23505|Duplicate entry '{value}' for key '{qindex}'",
            "23503|Cannot add or update a child row: a foreign key constraint fails ({qtable}, CONSTRAINT `{constraint}` FOREIGN KEY ({columns}) REFERENCES {qtable} ({columns}))",
            "23503|Cannot delete or update a parent row: a foreign key constraint fails ({qtable}, CONSTRAINT `{constraint}` FOREIGN KEY ({columns}) REFERENCES {qtable} ({columns}))",
            "23503|Cannot add or update a child row: a foreign key constraint fails",
            "23503|Cannot delete or update a parent row: a foreign key constraint fails",
            "23514|CONSTRAINT {qconstraint} failed for {qtable}",
            "23514|Check constraint '{constraint}' is violated.",
            "22001|Data too long for column '{column}' at row {n}",
            "22003|Out of range value for column '{column}' at row {n}",
            "22012|Division by 0",
            "22007|Incorrect {types} value: '{value}' for column {qcolumn} at row {n}",
            "25006|Cannot execute statement in a READ ONLY transaction",
            "42501|{command} command denied to user '{user}'@'{host}' for table {qtable}",
            "42501|execute command denied to user '{user}'@'{host}' for routine '{qfunction}'",
            "42501|Access denied for user '{user}'@'{host}' to database '{database}'",
            "28000|Access denied for user '{user}'@'{host}' (using password: {words})",
            "28000|Access denied for user '{user}'@'{host}'",
            "3D000|Unknown database '{database}'",
            "08001|Can't connect to server on '{host}'",
            "08001|Can't connect to MySQL server on '{host}'",
            "08001|Can't connect to MySQL server on '{host}' ([Errno {n}] {words})",
            "08001|Can't connect to local server through socket '{file}'",
            "08001|Can't connect to local MySQL server through socket '{file}'",
            "08001|Unknown server host '{host}'",
            "08001|Unknown MySQL server host '{host}'",
            "08004|Too many connections",
            "08006|MySQL server has gone away",
            "08006|Lost connection to MySQL server during query",
            "08006|Lost connection to server during query",
            "08001|php_network_getaddresses: getaddrinfo for {host} failed: {words}",
            // MariaDB Connector/J's own (the unknown host's name is the cause's whole message)
            "08001|Socket fail to connect to {host}:{port}. {host}",
            "08001|Socket fail to connect to {host}:{port}. {words}",
            "40001|Deadlock found when trying to get lock; try restarting transaction",
            "40001|Lock wait timeout exceeded; try restarting transaction",
            // ---- SQLite ----
            "42601|near \"{query}\": syntax error",
            "42601|incomplete input",
            "42601|unrecognized token: \"{query}\"",
            "42601|{n} values for {n} columns",
            "42703|no such column: {qcolumn}",
            "42P01|no such table: {qtable}",
            "42883|no such function: {function}",
            "42703|table {qtable} has no column named {column}",
            "42702|ambiguous column name: {qcolumn}",
            "23502|NOT NULL constraint failed: {qcolumn}",
            "23505|UNIQUE constraint failed: {columns}",
            "23505|PRIMARY KEY constraint failed: {columns}",
            "23503|FOREIGN KEY constraint failed",
            "23514|CHECK constraint failed: {constraint}",
            "22P02|cannot store {types} value in {types} column {qcolumn}",
            "22P02|datatype mismatch",
            "25006|attempt to write a readonly database",
            "40001|database is locked",
            "08001|unable to open database file",
            "08001|unable to open database \"{file}\": unable to open database file",
            // ---- SQL Server (message text from Microsoft's MSSQLSERVER_nnn reference) ----
            "42P01|Invalid object name '{qobject}'.",
            "42703|Invalid column name '{column}'.",
            "42601|Incorrect syntax near '{query}'.",
            "42601|Incorrect syntax near the keyword '{query}'.",
            "23505|Violation of PRIMARY KEY constraint '{constraint}'. Cannot insert duplicate key in object '{qobject}'. The duplicate key value is ({row}).",
            "23505|Violation of UNIQUE KEY constraint '{constraint}'. Cannot insert duplicate key in object '{qobject}'. The duplicate key value is ({row}).",
            "23505|Cannot insert duplicate key row in object '{qobject}' with unique index '{index}'. The duplicate key value is ({row}).",
            "23503|The {command} statement conflicted with the FOREIGN KEY constraint \"{constraint}\". The conflict occurred in database \"{database}\", table \"{qobject}\", column '{column}'.",
            "23503|The {command} statement conflicted with the FOREIGN KEY constraint \"{constraint}\". The conflict occurred in database \"{database}\", table \"{qobject}\".",
            "23503|The {command} statement conflicted with the REFERENCE constraint \"{constraint}\". The conflict occurred in database \"{database}\", table \"{qobject}\", column '{column}'.",
            "23514|The {command} statement conflicted with the CHECK constraint \"{constraint}\". The conflict occurred in database \"{database}\", table \"{qobject}\", column '{column}'.",
            "23514|The {command} statement conflicted with the CHECK constraint \"{constraint}\". The conflict occurred in database \"{database}\", table \"{qobject}\".",
            "23502|Cannot insert the value NULL into column '{column}', table '{qobject}'; column does not allow nulls. {command} fails.",
            "22012|Divide by zero error encountered.",
            "22018|Conversion failed when converting the {types} value '{value}' to data type {types}.",
            "22001|String or binary data would be truncated in table '{qobject}', column '{column}'. Truncated value: '{value}'.",
            "22001|String or binary data would be truncated.",
            "28000|Login failed for user '{user}'.",
            "3D000|Cannot open database \"{database}\" requested by the login. The login failed.",
            "42501|The {command} permission was denied on the object '{object}', database '{database}', schema '{schema}'.",
            "42883|'{qfunction}' is not a recognized built-in function name.",
            "42883|Could not find stored procedure '{qfunction}'.",
            "25006|Failed to update database \"{database}\" because the database is read-only.",
            "40001|Transaction (Process ID {n}) was deadlocked on lock resources with another process and has been chosen as the deadlock victim. Rerun the transaction.",
            // ---- Oracle (message text from Oracle's Database Error Messages reference) ----
            "42P01|table or view does not exist",
            "42P01|table or view {qtable} does not exist",
            "42703|{qcolumn}: invalid identifier",
            "23505|unique constraint ({qconstraint}) violated",
            "23505|unique constraint ({qconstraint}) violated on table {qtable} columns ({columns})",
            "23503|integrity constraint ({qconstraint}) violated - parent key not found",
            "23503|integrity constraint ({qconstraint}) violated - child record found",
            "23502|cannot insert NULL into ({qcolumn})",
            "23514|check constraint ({qconstraint}) violated",
            "22012|divisor is equal to zero",
            "22018|invalid number",
            "22001|value too large for column {qcolumn} (actual: {n}, maximum: {n})",
            "42601|invalid SQL statement",
            "42601|FROM keyword not found where expected",
            "42601|SQL command not properly ended",
            "42601|missing expression",
            "42601|missing right parenthesis",
            "28000|invalid username/password; logon denied",
            "28000|invalid credential or not authorized; logon denied",
            "42501|insufficient privileges",
            "08001|TNS:could not resolve the connect identifier specified",
            "08001|TNS:no listener",
            "08001|TNS:listener does not currently know of service requested in connect descriptor",
            "25006|database or pluggable database open for read-only access",
            "25006|database open for read-only access",
            "40001|deadlock detected while waiting for resource");

    /** PostgreSQL's DETAIL lines. */
    static final List<Template> DETAILS = compile(
            "|Key ({columns})=({row}) already exists.",
            "|Key ({columns})=({row}) is not present in table \"{qtable}\".",
            "|Key ({columns})=({row}) is still referenced from table \"{qtable}\".",
            "|Key ({columns})=({row}) conflicts with existing key ({columns})=({row}).",
            "|Failing row contains ({row}).",
            "|User does not have CONNECT privilege.",
            "|Token \"{value}\" is invalid.");

    /** PostgreSQL's HINT lines. */
    static final List<Template> HINTS = compile(
            "|Perhaps you meant to reference the column \"{qcolumn}\".",
            "|Perhaps you meant to reference the column \"{qcolumn}\" or the column \"{qcolumn}\".",
            "|Perhaps you meant to reference the table alias \"{table}\".",
            "|No function matches the given name and argument types. You might need to add explicit type casts.",
            "|No operator matches the given name and argument types. You might need to add explicit type casts.",
            "|There is a column named \"{column}\" in table \"{table}\", but it cannot be referenced from this part of the query.",
            "|There is an entry for table \"{table}\", but it cannot be referenced from this part of the query.",
            "|Could not choose a best candidate function. You might need to add explicit type casts.");

    /**
     * libpq's connection prefix: the server's own message follows it ({@code FATAL:  password
     * authentication failed…}, {@code Connection refused}).
     */
    static final List<Template> CONNECTION_PREFIXES = compile(
            "08001|connection to server at \"{host}\" ({host}), port {port} failed: ",
            "08001|connection to server at \"{host}\", port {port} failed: ",
            "08001|connection to server on socket \"{file}\" failed: ");

    private static List<Template> compile(String... specs) {
        List<Template> out = new ArrayList<>(specs.length);
        for (String spec : specs) {
            int bar = spec.indexOf('|');
            String body = spec.substring(bar + 1);
            List<Object> parts = new ArrayList<>();
            int i = 0;
            while (i < body.length()) {
                int open = body.indexOf('{', i);
                // a '{' followed by a slot name; "{" alone (none here) would be literal
                if (open < 0) {
                    parts.add(body.substring(i));
                    break;
                }
                if (open > i) {
                    parts.add(body.substring(i, open));
                }
                int close = body.indexOf('}', open);
                parts.add(DatabaseSlot.valueOf(body.substring(open + 1, close).toUpperCase(Locale.ROOT)));
                i = close + 1;
            }
            for (int k = 1; k < parts.size(); k++) {
                if (parts.get(k) instanceof DatabaseSlot && parts.get(k - 1) instanceof DatabaseSlot) {
                    throw new IllegalStateException("two slots in a row in " + spec);
                }
            }
            int literalChars = 0;
            for (Object part : parts) {
                literalChars += part instanceof String literal ? literal.length() : 0;
            }
            out.add(new Template(spec.substring(0, bar), List.copyOf(parts), literalChars));
        }
        return List.copyOf(out);
    }
}
