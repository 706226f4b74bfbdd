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

    private static ValidationFailure validation(String message) {
        return new ValidationFailure(List.of(new Violation("", message)));
    }

}
