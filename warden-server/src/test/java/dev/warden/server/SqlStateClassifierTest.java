package dev.warden.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ToolFailure;
import dev.warden.server.sql.SqlStateClassifier;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Real driver exceptions from an embedded database, mapped by SQLSTATE to safe failures. */
class SqlStateClassifierTest {

    private Connection connection;

    @BeforeEach
    void open() throws SQLException {
        connection = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID());
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TABLE accounts (id INT PRIMARY KEY, email VARCHAR(50) NOT NULL "
                    + "CONSTRAINT uq_accounts_email UNIQUE, balance INT CONSTRAINT ck_balance CHECK (balance >= 0))");
            s.execute("CREATE TABLE orders (id INT PRIMARY KEY, account_id INT "
                    + "CONSTRAINT fk_orders_account REFERENCES accounts(id))");
            s.execute("INSERT INTO accounts VALUES (1, 'a@example.com', 10)");
        }
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private ToolFailure classify(String sql) {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            Optional<ToolFailure> failure = SqlStateClassifier.INSTANCE.classify(new RuntimeException("wrapped", e));
            assertThat(failure).as("SQLSTATE %s is mapped", e.getSQLState()).isPresent();
            assertThat(failure.get().safeMessage()).doesNotContainIgnoringCase("accounts")
                    .doesNotContainIgnoringCase("email").doesNotContainIgnoringCase("uq_")
                    .doesNotContainIgnoringCase("fk_").doesNotContainIgnoringCase("ck_")
                    .doesNotContainIgnoringCase("insert").doesNotContainIgnoringCase("select");
            return failure.get();
        }
        throw new AssertionError("statement did not fail: " + sql);
    }

    @Test
    void uniqueViolationIsAPermanentConflict() {
        ToolFailure failure = classify("INSERT INTO accounts VALUES (2, 'a@example.com', 0)");
        assertThat(failure.code()).isEqualTo(ErrorCode.CONFLICT);
        assertThat(failure.retryable()).isFalse();
    }

    @Test
    void foreignKeyViolationIsRelatedRecordNotFound() {
        ToolFailure failure = classify("INSERT INTO orders VALUES (1, 999)");
        assertThat(failure.code()).isEqualTo(ErrorCode.NOT_FOUND);
        assertThat(failure.safeMessage()).isEqualTo("A related record was not found.");
    }

    @Test
    void notNullViolationIsAValidationError() {
        assertThat(classify("INSERT INTO accounts (id, email) VALUES (3, NULL)").code())
                .isEqualTo(ErrorCode.VALIDATION_ERROR);
    }

    @Test
    void checkViolationIsAValidationError() {
        assertThat(classify("INSERT INTO accounts VALUES (4, 'b@example.com', -5)").code())
                .isEqualTo(ErrorCode.VALIDATION_ERROR);
    }

    @Test
    void dataExceptionIsAValidationError() {
        assertThat(classify("INSERT INTO accounts VALUES (5, '" + "x".repeat(80) + "', 1)").code())
                .isEqualTo(ErrorCode.VALIDATION_ERROR);
    }

    @Test
    void statesWithoutADriverAtHandMapAsSpecified() {
        assertThat(SqlStateClassifier.forState("40001")).hasValueSatisfying(f -> {
            assertThat(f.code()).isEqualTo(ErrorCode.CONFLICT);
            assertThat(f.retryable()).isTrue();
        });
        assertThat(SqlStateClassifier.forState("40P01")).hasValueSatisfying(f -> assertThat(f.retryable()).isTrue());
        assertThat(SqlStateClassifier.forState("57014")).hasValueSatisfying(
                f -> assertThat(f.code()).isEqualTo(ErrorCode.TIMEOUT));
        assertThat(SqlStateClassifier.forState("08006")).hasValueSatisfying(
                f -> assertThat(f.code()).isEqualTo(ErrorCode.UPSTREAM_ERROR));
        assertThat(SqlStateClassifier.forState("22003")).hasValueSatisfying(
                f -> assertThat(f.code()).isEqualTo(ErrorCode.VALIDATION_ERROR));
    }

    @Test
    void anyOtherIntegrityViolationIsAConflict() {
        assertThat(SqlStateClassifier.forState("23000")).hasValueSatisfying(
                f -> assertThat(f.code()).isEqualTo(ErrorCode.CONFLICT));
    }

    @Test
    void deletingAReferencedRecordSaysItIsStillReferenced() throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("INSERT INTO orders VALUES (7, 1)");
        }
        ToolFailure failure = classify("DELETE FROM accounts WHERE id = 1");
        assertThat(failure.code()).isEqualTo(ErrorCode.NOT_FOUND);
        assertThat(failure.safeMessage()).contains("still referenced");
    }

    @Test
    void syntaxErrorsStayInternal() {
        try (Statement s = connection.createStatement()) {
            s.execute("SELEC broken FROM accounts");
        } catch (SQLException e) {
            assertThat(SqlStateClassifier.INSTANCE.classify(e)).isEmpty();
            return;
        }
        throw new AssertionError("statement did not fail");
    }
}
