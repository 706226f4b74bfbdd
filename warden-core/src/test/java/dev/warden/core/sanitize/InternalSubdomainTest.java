package dev.warden.core.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import org.junit.jupiter.api.Test;

/**
 * A public zone's internal host ({@code enrich-worker-7.int.acme-data.net}, in a real API's 503 body
 * relayed by the official Java SDK's CRM server in the untuned suite) is topology like a
 * {@code .internal} name; public hosts stay.
 */
class InternalSubdomainTest {

    private static String sanitized(String text) {
        return Sanitizer.builder().build().sanitize(text, Policy.REDACT, ErrorCode.UPSTREAM_ERROR, CallerInput.none())
                .output();
    }

    @Test
    void aHostInAnInternalSubdomainOfAPublicZoneIsRedacted() {
        assertThat(sanitized("{\"node\":\"enrich-worker-7.int.acme-data.net\"}")).doesNotContain("enrich-worker-7")
                .contains("[redacted:internal-host]");
    }

    @Test
    void publicHostsStay() {
        assertThat(sanitized("see https://api.github.com/repos and registry.npmjs.org"))
                .contains("api.github.com").contains("registry.npmjs.org");
    }
}
