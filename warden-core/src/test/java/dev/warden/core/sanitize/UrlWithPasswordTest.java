package dev.warden.core.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import org.junit.jupiter.api.Test;

/**
 * A URL with a password in it is a connection string: its user, host and database are the server's
 * as much as the password is, so the whole URL goes (the untuned-servers suite's ledger and calendar
 * failures kept {@code ledger_rw} and the host with only the password masked).
 */
class UrlWithPasswordTest {

    private static final Sanitizer SANITIZER = Sanitizer.builder().build();

    private static String sanitized(String text) {
        return SANITIZER.sanitize(text, Policy.REDACT, ErrorCode.UPSTREAM_ERROR, CallerInput.none()).output();
    }

    @Test
    void aConnectionStringGoesWholeUserHostAndDatabaseIncluded() {
        String out = sanitized("ledger sync failed: connect postgres://ledger_rw:Lg7-Qp2x-Vb9k@ledger-db-3.payments.internal:5432/ledger (timeout)");

        assertThat(out).isEqualTo("ledger sync failed: connect [redacted:connection-string] (timeout)");
    }

    @Test
    void aHttpsUrlWithCredentialsGoesWholeToo() {
        String out = sanitized("request to https://svc-calendar:Ky8-Wq3z-Tm5p@calendar.corp.internal:8443/v2/days/2026-12-01 failed");

        assertThat(out).doesNotContain("svc-calendar").doesNotContain("Ky8-Wq3z-Tm5p").doesNotContain("calendar.corp")
                .startsWith("request to [redacted:connection-string]").endsWith(" failed");
    }

    @Test
    void aUrlWithoutAPasswordKeepsItsUser() {
        assertThat(sanitized("see https://docs@example.com/page")).contains("docs@");
    }
}
