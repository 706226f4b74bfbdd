package dev.warden.store.postgres;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;

/** Values as PostgreSQL takes them: text without NUL (which it cannot store), instants as timestamps. */
final class Text {

    private Text() {
    }

    /** NUL replaced by U+FFFD: one NUL in an upstream's text must not fail a whole batch. */
    static String clean(String s) {
        return s.indexOf('\0') < 0 ? s : s.replace('\0', '\uFFFD');
    }

    static void set(PreparedStatement s, int index, String value) throws SQLException {
        s.setString(index, clean(value));
    }

    static void set(PreparedStatement s, int index, Optional<String> value) throws SQLException {
        if (value.isPresent()) {
            s.setString(index, clean(value.get()));
        } else {
            s.setNull(index, java.sql.Types.VARCHAR);
        }
    }

    static void set(PreparedStatement s, int index, Instant at) throws SQLException {
        s.setTimestamp(index, Timestamp.from(at));
    }
}
