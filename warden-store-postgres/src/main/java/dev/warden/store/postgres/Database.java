package dev.warden.store.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * How the store reaches PostgreSQL: plain connections, no pool. Each writer (incidents, audit)
 * keeps one connection open and commits a whole batch on it, so a gateway needs two connections
 * however many calls run at once; reads ({@code warden incidents}) are an operator's occasional
 * lookups and open one for the query. A pool (HikariCP) would only add a library and threads for
 * connections nothing would borrow. Every connection is bounded in time: connecting, logging in and
 * each socket read, so a PostgreSQL that stops answering fails a write instead of hanging it.
 */
final class Database {

    /** Seconds: how long connecting and logging in may take, and a statement's answer. */
    private static final int CONNECT_SECONDS = 3;
    private static final int SOCKET_SECONDS = 10;

    private final PostgresSettings.Endpoint endpoint;
    private final String schema;

    Database(PostgresSettings settings) {
        this.endpoint = PostgresSettings.endpoint(settings.url());
        this.schema = settings.schema();
    }

    String schema() {
        return schema;
    }

    /** A connection whose unqualified names are the store's schema. */
    Connection open() throws SQLException {
        Properties props = new Properties();
        endpoint.user().ifPresent(u -> props.setProperty("user", u));
        endpoint.password().ifPresent(p -> props.setProperty("password", p));
        props.setProperty("currentSchema", schema);
        props.setProperty("connectTimeout", Integer.toString(CONNECT_SECONDS));
        props.setProperty("loginTimeout", Integer.toString(CONNECT_SECONDS));
        props.setProperty("socketTimeout", Integer.toString(SOCKET_SECONDS));
        props.setProperty("tcpKeepAlive", "true");
        // A batch of inserts is sent as multi-row INSERTs: one round trip per batch, not per record.
        props.setProperty("reWriteBatchedInserts", "true");
        props.setProperty("ApplicationName", "warden");
        Connection c = new org.postgresql.Driver().connect(endpoint.jdbcUrl(), props);
        if (c == null) {
            throw new SQLException("not a PostgreSQL URL", "08001");
        }
        return c;
    }

    /** The same connections as a {@link DataSource}, for Flyway. */
    DataSource dataSource() {
        PGSimpleDataSource ds = new PGSimpleDataSource() {
            private static final long serialVersionUID = 1L;

            @Override
            public Connection getConnection() throws SQLException {
                return open();
            }

            @Override
            public Connection getConnection(String user, String password) throws SQLException {
                return open();
            }
        };
        ds.setURL(endpoint.jdbcUrl());
        return ds;
    }

    /** What an error may say of a failure: the driver's message (it never holds the password) and its state. */
    static String describe(SQLException e) {
        String message = String.valueOf(e.getMessage()).lines().findFirst().orElse("").strip();
        return "PostgreSQL " + (e.getSQLState() == null ? "" : "(" + e.getSQLState() + ") ") + message;
    }
}
