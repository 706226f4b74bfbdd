package dev.warden.core.sanitize;

import dev.warden.core.sanitize.credential.SecretKeys;
import dev.warden.core.sanitize.detection.Category;
import java.util.Map;
import java.util.Optional;

/**
 * Member names whose value, in a failure, is a name only the server knows: the fields database
 * drivers put on their error objects (node-postgres' {@code schema}, {@code table}, {@code
 * constraint}, {@code routine}, {@code where}, {@code file}; mysql2's {@code sqlMessage} is text and
 * read as such) and the place a connection went ({@code host}, {@code port}). A plain {@code user}
 * is left to the detectors: it is as often the caller's own identity as a database role. Such a
 * value is redacted unless the caller sent it ({@code "table":"customers"} when its SQL named
 * customers stays), in an object that is a driver's or runtime's error. Names are compared as
 * {@link SecretKeys} compares them.
 */
final class ServerNameKeys {

    private static final int MAX_NAME_CHARS = 32;

    private static final Map<String, String> KINDS = Map.ofEntries(
            Map.entry("schema", "schema-name"), Map.entry("schemaname", "schema-name"),
            Map.entry("table", "table-name"), Map.entry("tablename", "table-name"),
            Map.entry("column", "column-name"), Map.entry("columnname", "column-name"),
            Map.entry("constraint", "constraint-name"), Map.entry("constraintname", "constraint-name"),
            Map.entry("datatype", "type-name"), Map.entry("datatypename", "type-name"),
            Map.entry("routine", "function-name"), Map.entry("where", "query"),
            Map.entry("internalquery", "query"), Map.entry("file", "file-name"),
            Map.entry("database", "database-name"), Map.entry("dbname", "database-name"),
            Map.entry("dbuser", "user-name"), Map.entry("host", "host-name"), Map.entry("hostname", "host-name"),
            Map.entry("port", "port"));

    private ServerNameKeys() {
    }

    /**
     * The kind of name a member of this name holds in this object, if it is one of them and the
     * object is an error a driver or runtime made (node-postgres: {@code severity}; mysql2: {@code
     * sqlState}, {@code errno}; Node's system errors: {@code syscall}, {@code errno}): a log line's
     * own {@code hostname} and {@code port} are the service describing itself, not a failure.
     */
    static Optional<String> kindOf(String name, tools.jackson.databind.JsonNode object) {
        if (!(object.has("severity") || object.has("sqlState") || object.has("sqlstate") || object.has("errno")
                || object.has("syscall"))) {
            return Optional.empty();
        }
        return kindOf(name);
    }

    /** The kind of name a member of this name holds, if it is one of them. */
    static Optional<String> kindOf(String name) {
        return SecretKeys.normalized(name, MAX_NAME_CHARS).map(KINDS::get);
    }

    /**
     * The label a member of a PostgreSQL error object stood under as a line of the server's message
     * ({@code detail} was {@code DETAIL:}, {@code hint} {@code HINT:}), when {@code object} is one
     * (node-postgres' error: a {@code severity} and a five-character {@code code}).
     */
    static Optional<String> databaseLineLabel(tools.jackson.databind.JsonNode object, String name) {
        if (!(name.equals("detail") || name.equals("hint")) || !object.path("severity").isString()
                || object.path("code").asString("").length() != 5) {
            return Optional.empty();
        }
        return Optional.of(name.equals("detail") ? "DETAIL:  " : "HINT:  ");
    }

    /** The category a finding of this kind counts in. */
    static Category categoryOf(String kind) {
        return switch (kind) {
            case "host-name", "port" -> Category.TOPOLOGY;
            case "file-name" -> Category.FILE_PATH;
            default -> Category.DATABASE;
        };
    }
}
