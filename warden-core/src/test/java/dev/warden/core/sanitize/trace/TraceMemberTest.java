package dev.warden.core.sanitize.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.sanitize.CallerInput;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import org.junit.jupiter.api.Test;

/**
 * An API's trace member quoted in an error's text (the untuned suite's Spring AI server relays its
 * FX API's 503 body: {@code 503 Service Unavailable: "{…,"trace":"java.sql.SQLTransientConnection…"}"})
 * goes; the rest of the body, which says what failed, stays.
 */
class TraceMemberTest {

    private static String sanitized(String text) {
        return Sanitizer.builder().build().sanitize(text, Policy.REDACT, ErrorCode.UPSTREAM_ERROR, CallerInput.none())
                .output();
    }

    @Test
    void aTraceMemberInABodyQuotedInTextGoesAndTheErrorStays() {
        String out = sanitized("503 Service Unavailable: \"{\"error\":\"rates feed stale\",\"trace\":\"java.sql."
                + "SQLTransientConnectionException: HikariPool-1 - Connection is not available\"}\"");

        assertThat(out).contains("rates feed stale").doesNotContain("HikariPool").doesNotContain("SQLTransient");
    }

    @Test
    void anEscapedTraceMemberGoesToo() {
        String out = sanitized("body: {\\\"error\\\":\\\"down\\\",\\\"stack\\\":\\\"Error: pool exhausted at db.js\\\"}");

        assertThat(out).contains("down").doesNotContain("pool exhausted");
    }

    @Test
    void aWordTraceInProseIsNoMember() {
        assertThat(sanitized("could not trace the order: \"ord_1\" is unknown")).contains("could not trace the order");
    }
}
