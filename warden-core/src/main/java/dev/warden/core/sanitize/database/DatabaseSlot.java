package dev.warden.core.sanitize.database;

import dev.warden.core.sanitize.scan.Text;
import java.util.Locale;
import java.util.Set;

/**
 * A place in a database message where the server puts a name, a value or an echo of the query.
 * Each becomes findings over exactly its text, so the caller's own is kept; the kind names the
 * placeholder ({@code table-name}, {@code constraint-name}, {@code value}, {@code query}...). A
 * slot that only holds fixed server words (a clause, a built-in type, a number) is left when it
 * does, and redacted as {@code database-detail} when it holds anything else.
 */
enum DatabaseSlot {
    TABLE("table-name"),
    COLUMN("column-name"),
    CONSTRAINT("constraint-name"),
    INDEX("index-name"),
    SCHEMA("schema-name"),
    DATABASE("database-name"),
    FUNCTION("function-name"),
    TYPE("type-name"),
    OBJECT("object-name"),
    USER("user-name"),
    HOST("host-name"),
    PORT("port"),
    FILE("file-name"),
    VALUE("value"),
    QUERY("query"),
    /** {@code schema.table}, {@code `db`.`table`}, {@code "HR"."EMP"}: each part its own name, from the right. */
    QTABLE("table-name", "schema-name", "database-name"),
    QCOLUMN("column-name", "table-name", "schema-name", "database-name"),
    QCONSTRAINT("constraint-name", "schema-name"),
    QINDEX("index-name", "table-name"),
    QFUNCTION("function-name", "schema-name", "database-name"),
    QOBJECT("object-name", "schema-name", "database-name"),
    /** A list of (qualified) column names: {@code email, tenant_id}, {@code `member_id`}. */
    COLUMNS("column-name", "table-name", "schema-name"),
    /** A list of values: a key's or a failing row's. */
    ROW("value"),
    /** A number (a position, a row, a length, an OS error number). */
    N("database-detail"),
    /** Built-in type names and operators ({@code integer = timestamp with time zone}). */
    TYPES("type-name"),
    /** An upper-case SQL command ({@code INSERT}, {@code CREATE TABLE}). */
    COMMAND("database-detail"),
    /** MariaDB's clause names ({@code field list}, {@code where clause}). */
    CLAUSE("database-detail"),
    /** Plain words the server or the OS writes (a product name, {@code Name or service not known}). */
    WORDS("database-detail");

    private final String[] kinds;

    DatabaseSlot(String... kinds) {
        this.kinds = kinds;
    }

    /** The placeholder kind of the part {@code fromRight} places from the right (0 = the last). */
    String kind(int fromRight) {
        return kinds[Math.min(fromRight, kinds.length - 1)];
    }

    boolean qualified() {
        return kinds.length > 1;
    }

    boolean list() {
        return this == COLUMNS || this == ROW;
    }

    /** For a fixed-words slot: whether {@code [s, e)} holds only what it may hold (then it stays). */
    boolean fixedWords(String text, int s, int e) {
        return switch (this) {
            case N -> numberish(text, s, e);
            case TYPES -> builtInTypes(text, s, e);
            case COMMAND -> upperWords(text, s, e);
            case CLAUSE -> CLAUSES.contains(text.substring(s, e));
            case WORDS -> plainWords(text, s, e);
            default -> false;
        };
    }

    boolean keptWhenFixed() {
        return this == N || this == TYPES || this == COMMAND || this == CLAUSE || this == WORDS;
    }

    private static final Set<String> CLAUSES = Set.of("field list", "where clause", "on clause", "order clause",
            "group statement", "having clause", "from clause", "SELECT", "INSERT INTO", "UPDATE", "DELETE",
            "IN/ALL/ANY subquery", "RETURNING", "CHECK", "VALUES() function", "OPTIONS", "NEW", "OLD");

    /** PostgreSQL's, MySQL's and SQL Server's built-in type words, lower case. */
    private static final Set<String> TYPE_WORDS = Set.of("integer", "int", "int2", "int4", "int8", "smallint",
            "bigint", "tinyint", "mediumint", "numeric", "decimal", "real", "double", "precision", "float", "float4",
            "float8", "money", "text", "character", "char", "varchar", "nvarchar", "nchar", "ntext", "varying",
            "bpchar", "name", "boolean", "bool", "bit", "bytea", "binary", "varbinary", "blob", "date", "time",
            "timestamp", "timestamptz", "datetime", "datetime2", "smalldatetime", "datetimeoffset", "interval",
            "with", "without", "zone", "uuid", "uniqueidentifier", "json", "jsonb", "xml", "inet", "cidr",
            "macaddr", "oid", "regclass", "unknown", "record", "anyelement", "anyarray", "void", "tsvector",
            "tsquery", "point", "array", "enum", "number", "varchar2", "nvarchar2", "clob", "nclob", "raw", "long",
            "rowid", "unsigned", "signed", "year", "set", "geometry", "hstore", "citext", "serial", "bigserial");

    private static boolean builtInTypes(String text, int s, int e) {
        int i = s;
        boolean any = false;
        while (i < e) {
            char c = text.charAt(i);
            if (Text.isAlnum(c) || c == '_') {
                int w = i;
                while (i < e && (Text.isAlnum(text.charAt(i)) || text.charAt(i) == '_')) {
                    i++;
                }
                String word = text.substring(w, i).toLowerCase(Locale.ROOT);
                if (!TYPE_WORDS.contains(word) && !allDigits(word)) {
                    return false;
                }
                any = true;
            } else if (" ,()[]=<>!~+-*/%&|^@#".indexOf(c) >= 0) {
                i++;
            } else {
                return false;
            }
        }
        return any;
    }

    private static boolean allDigits(String word) {
        for (int k = 0; k < word.length(); k++) {
            if (!Text.isDigit(word.charAt(k))) {
                return false;
            }
        }
        return !word.isEmpty();
    }

    private static boolean numberish(String text, int s, int e) {
        int i = s < e && text.charAt(s) == '-' ? s + 1 : s;
        if (i >= e) {
            return false;
        }
        for (; i < e; i++) {
            if (!Text.isDigit(text.charAt(i))) {
                return false;
            }
        }
        return e - s <= 12;
    }

    private static boolean upperWords(String text, int s, int e) {
        for (int i = s; i < e; i++) {
            char c = text.charAt(i);
            if (!(Text.isUpper(c) || c == ' ')) {
                return false;
            }
        }
        return e - s <= 40;
    }

    /** Letters, spaces and a little punctuation, at most a sentence: no quote, digit-laden token or dot-name. */
    private static boolean plainWords(String text, int s, int e) {
        if (e - s > 80) {
            return false;
        }
        for (int i = s; i < e; i++) {
            char c = text.charAt(i);
            if (!(Text.isUpper(c) || Text.isLower(c) || c == ' ' || c == ',' || c == '-')) {
                return false;
            }
        }
        return true;
    }
}
