package dev.warden.examples.demo;

import dev.warden.server.auth.CredentialVerifier;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.UUID;

/**
 * Users in a real embedded SQL database (H2, in memory) reached through plain JDBC, so a duplicate
 * email is a genuine unique violation whose driver message names the table, index and SQL.
 */
final class UserDirectory {

    /** Low enough to keep the demo quick; production hashes use {@link CredentialVerifier#DEFAULT_ITERATIONS}. */
    static final int DEMO_ITERATIONS = 20_000;

    private final String url;

    private UserDirectory(String url) {
        this.url = url;
    }

    static UserDirectory open() {
        UserDirectory directory = new UserDirectory("jdbc:h2:mem:warden-demo-" + UUID.randomUUID()
                + ";DB_CLOSE_DELAY=-1");
        directory.initialize();
        return directory;
    }

    private void initialize() {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE users (id UUID PRIMARY KEY, name VARCHAR(100) NOT NULL, "
                    + "email VARCHAR(254) NOT NULL, role VARCHAR(16) NOT NULL, age INT, password_hash VARCHAR(200), "
                    + "CONSTRAINT uq_users_email UNIQUE (email))");
            insert(c, "Ada Lovelace", "ada@example.com", "admin", 36,
                    CredentialVerifier.hash("correct horse battery staple".toCharArray(), DEMO_ITERATIONS));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot initialize the demo database", e);
        }
    }

    UUID create(String name, String email, String role, Integer age) throws SQLException {
        try (Connection c = connect()) {
            return insert(c, name, email, role, age, null);
        }
    }

    Optional<String> passwordHash(String email) {
        try (Connection c = connect();
             PreparedStatement ps = c.prepareStatement("SELECT password_hash FROM users WHERE email = ?")) {
            ps.setString(1, email);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("user lookup failed", e);
        }
    }

    private static UUID insert(Connection c, String name, String email, String role, Integer age, String hash)
            throws SQLException {
        UUID id = UUID.randomUUID();
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO users (id, name, email, role, age, password_hash) VALUES (?, ?, ?, ?, ?, ?)")) {
            ps.setObject(1, id);
            ps.setString(2, name);
            ps.setString(3, email);
            ps.setString(4, role);
            if (age == null) {
                ps.setNull(5, java.sql.Types.INTEGER);
            } else {
                ps.setInt(5, age);
            }
            ps.setString(6, hash);
            ps.executeUpdate();
        }
        return id;
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(url);
    }
}
