package dev.warden.server.sql;

import dev.warden.core.error.SqlStates;
import dev.warden.core.error.FailureClassifier;
import dev.warden.core.error.ToolFailure;
import java.sql.SQLException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Maps a {@link SQLException} anywhere in a cause chain to a failure by its SQLSTATE. The messages
 * are fixed text: driver messages name tables, columns, constraints and SQL, so they only ever go
 * to the incident log. States not listed here stay internal errors.
 */
public final class SqlStateClassifier implements FailureClassifier {

    public static final SqlStateClassifier INSTANCE = new SqlStateClassifier();

    private SqlStateClassifier() {
    }

    @Override
    public Optional<ToolFailure> classify(Throwable throwable) {
        return findSqlState(throwable).flatMap(SqlStateClassifier::forState);
    }

    /** The failure for one SQLSTATE, or empty if it should stay an internal error. */
    public static Optional<ToolFailure> forState(String state) {
        return SqlStates.forState(state);
    }

    private static Optional<String> findSqlState(Throwable throwable) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable t = throwable; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                for (SQLException e = sql; e != null && (e == sql || seen.put(e, Boolean.TRUE) == null);
                        e = e.getNextException()) {
                    if (e.getSQLState() != null && e.getSQLState().length() == 5) {
                        return Optional.of(e.getSQLState());
                    }
                }
            }
        }
        return Optional.empty();
    }
}
