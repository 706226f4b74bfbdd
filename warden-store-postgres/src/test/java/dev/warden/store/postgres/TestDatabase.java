package dev.warden.store.postgres;

import dev.warden.testkit.LocalPostgres;
import java.net.URI;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;

/**
 * The real PostgreSQL this JVM starts ({@link LocalPostgres}), with a schema of the test's own,
 * dropped afterwards.
 */
final class TestDatabase implements AutoCloseable {

    static final String URL = LocalPostgres.shared().url();

    final String schema = "wt_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12).toLowerCase(Locale.ROOT);

    static TestDatabase require() {
        return new TestDatabase();
    }

    PostgresSettings settings() {
        return PostgresSettings.of(URL).withSchema(schema);
    }

    /** The same database reached through another port on loopback (a relay in front of it). */
    PostgresSettings settingsVia(int port) {
        URI u = URI.create(URL);
        return PostgresSettings.of(u.getScheme() + "://" + u.getRawUserInfo() + "@127.0.0.1:" + port + u.getRawPath())
                .withSchema(schema);
    }

    static String host() {
        return URI.create(URL).getHost();
    }

    static int port() {
        int p = URI.create(URL).getPort();
        return p < 0 ? 5432 : p;
    }

    long count(String sql) throws SQLException {
        try (Connection c = new Database(settings()).open(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    void execute(String sql) throws SQLException {
        try (Connection c = new Database(settings()).open(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    @Override
    public void close() throws SQLException {
        try (Connection c = new Database(settings().withSchema("public")).open(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }
}
