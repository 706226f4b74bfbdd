package dev.warden.core.sanitize.database;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.sanitize.CallerInput;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A JDBC driver's message printed as an exception's line inside a Java stack trace (as pgjdbc's
 * {@code PSQLException} prints it) is what the model needs from the trace: it stays, read as the
 * database message it is; the frames and other exception lines go.
 */
class DatabaseMessageInTraceTest {

    private static final CallerInput SENT = CallerInput.ofStrings(List.of("SELECT emial FROM customers"));
    private final Sanitizer sanitizer = Sanitizer.ofDefaults();

    private String redact(String text) {
        return sanitizer.sanitize(text, Policy.REDACT, ErrorCode.UPSTREAM_ERROR, SENT).output();
    }

    @Test
    void theCauseOfAChainKeepsItsDatabaseMessage() {
        String out = redact("java.lang.RuntimeException: query failed in com.acme.crm.Repo\n"
                + "\tat com.acme.crm.Repo.find(Repo.java:41)\n"
                + "Caused by: org.postgresql.util.PSQLException: ERROR: column \"emial\" does not exist\n"
                + "\tat org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:2725)");

        assertThat(out).contains("column \"emial\" does not exist").doesNotContain("acme").doesNotContain("Repo")
                .doesNotContain("QueryExecutorImpl").doesNotContain("PSQLException");
    }

    @Test
    void anUncaughtExceptionsLineKeepsItsDatabaseMessageWithItsNamesRedacted() {
        String out = redact("Exception in thread \"main\" org.postgresql.util.PSQLException: ERROR: duplicate key value "
                + "violates unique constraint \"cnry_uq_email_7f3a\"\n"
                + "\tat org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:2725)");

        assertThat(out).contains("duplicate key value violates unique constraint").doesNotContain("cnry_uq_email_7f3a")
                .doesNotContain("QueryExecutorImpl").doesNotContain("main");
    }

    @Test
    void anExceptionLineThatIsNoDatabaseMessageGoesWithItsTrace() {
        String out = redact("java.lang.NullPointerException: Cannot invoke \"com.acme.crm.Ledger.close()\" because "
                + "\"this.ledger\" is null\n\tat com.acme.crm.Repo.find(Repo.java:41)");

        assertThat(out).isEqualTo("[redacted:stack-trace]");
    }
}
