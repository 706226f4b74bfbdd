package dev.warden.core.error;

import java.util.List;
import java.util.Optional;

/**
 * SQLSTATE to failure: one mapping for the server SDK (a {@code SQLException} in a cause chain) and
 * the sanitizer (a database error in untrusted text). The messages are fixed text: driver messages
 * name tables, columns, constraints and SQL, and never reach the peer.
 */
public final class SqlStates {

    private SqlStates() {
    }

    /** The failure for one SQLSTATE, or empty if it should stay an internal error. */
    public static Optional<ToolFailure> forState(String state) {
        if (state == null || state.length() != 5) {
            return Optional.empty();
        }
        String sqlClass = state.substring(0, 2);
        ToolFailure failure = switch (state) {
            case "23505" -> new ConflictFailure("A record with the same unique value already exists.", false, null);
            case "40001", "40P01" -> new ConflictFailure(
                    "The operation conflicted with a concurrent change; retry it.", true, null);
            // PostgreSQL uses 23503 both for a missing parent and for deleting a referenced row.
            case "23503" -> new NotFoundFailure(
                    "A related record was not found, or the record is still referenced by others.");
            // 23506 and 23513 are H2's codes for a missing parent and a check violation.
            case "23506" -> new NotFoundFailure("A related record was not found.");
            case "23504" -> new ConflictFailure("Other records still refer to this record.", false, null);
            case "23502" -> validation("A required value is missing.");
            case "23514", "23513" -> validation("A value does not satisfy a constraint.");
            case "57014" -> new TimeoutFailure("The database operation timed out or was cancelled.", null);
            default -> switch (sqlClass) {
                case "22" -> validation("A value is out of range or has the wrong format.");
                // MySQL reports every integrity violation as 23000.
                case "23" -> new ConflictFailure("The change violates a data integrity rule.", false, null);
                case "08" -> new UpstreamFailure("The database is unavailable.", null);
                default -> null;
            };
        };
        return Optional.ofNullable(failure);
    }

    /**
     * The failure for a SQLSTATE a database error reported in text (the sanitizer's reading of an
     * upstream's message): {@link #forState}, and also the states that say what is wrong with the
     * query itself — its syntax, a name it uses that does not exist, a privilege or a read-only
     * transaction it runs into — and that the server's database is unreachable or refuses the
     * server's credentials. The SDK's mapping ({@link #forState}) leaves those internal, as there the
     * query is the developer's.
     */
    public static Optional<ToolFailure> forReportedState(String state) {
        Optional<ToolFailure> mapped = forState(state);
        if (mapped.isPresent() || state == null || state.length() != 5) {
            return mapped;
        }
        ToolFailure failure = switch (state) {
            case "42601", "42000", "42P10", "42804", "42P18" -> validation("The query is not valid SQL.");
            case "42702" -> validation("The query names a column ambiguously.");
            case "42P01", "42S02", "42703", "42S22", "42883", "42704", "3F000" -> new NotFoundFailure(
                    "The query names a table, column or function that does not exist.");
            case "42501", "25006" -> new PermissionDeniedFailure("The query is not allowed.");
            case "55P03" -> new ConflictFailure("The data is locked by a concurrent change; retry it.", true, null);
            default -> switch (state.substring(0, 2)) {
                case "28" -> new UpstreamFailure("The database refused the server's credentials.", null);
                case "3D", "53", "57" -> new UpstreamFailure("The database is unavailable.", null);
                default -> null;
            };
        };
        return Optional.ofNullable(failure);
    }

    private static ValidationFailure validation(String message) {
        return new ValidationFailure(List.of(new Violation("", message)));
    }

}
