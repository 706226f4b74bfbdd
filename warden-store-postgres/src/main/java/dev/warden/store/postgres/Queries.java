package dev.warden.store.postgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/** What the lookups share: binding their arguments, and the error when PostgreSQL cannot be read. */
final class Queries {

    private Queries() {
    }

    static void bind(PreparedStatement s, List<Object> args) throws SQLException {
        for (int i = 0; i < args.size(); i++) {
            Object a = args.get(i);
            switch (a) {
                case Instant at -> Text.set(s, i + 1, at);
                case String text -> Text.set(s, i + 1, text);
                case Integer n -> s.setInt(i + 1, n);
                default -> throw new IllegalArgumentException("unexpected argument type " + a.getClass());
            }
        }
    }

    /** The message names what could not be read and the driver's reason (which never holds the password). */
    static UncheckedIOException unreadable(String what, SQLException e) {
        if ("42P01".equals(e.getSQLState()) || "3F000".equals(e.getSQLState())) { // undefined table or schema
            return new UncheckedIOException("cannot read " + what + " in PostgreSQL: Warden's tables are not in "
                    + "this schema (a gateway with this postgres section creates them when it starts)",
                    new IOException(e.getMessage()));
        }
        return new UncheckedIOException("cannot read " + what + " in PostgreSQL: " + Database.describe(e),
                new IOException(e.getMessage()));
    }
}
